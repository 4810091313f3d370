#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image. The zip you upload
# holds this file, run_autograder, and your copy of the lab as lab/ (with your lab.config.ts:
# grading.weights and grading.partialCredit set the points). Gradescope unpacks it in
# /autograder/source.
set -euo pipefail
cd "$(dirname "$0")"

# The lab needs Node 20.19 or newer; Gradescope's Ubuntu images ship an older one, or none.
node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'
}
if ! node_ok; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y ca-certificates curl gnupg
  mkdir -p /etc/apt/keyrings
  curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key | gpg --dearmor --yes -o /etc/apt/keyrings/nodesource.gpg
  echo "deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_20.x nodistro main" >/etc/apt/sources.list.d/nodesource.list
  apt-get update
  apt-get install -y nodejs
fi

# The lab's dependencies, and dist/ built by its prepare script, from the lockfile.
cd lab
npm ci
node bin/lab.js --version
