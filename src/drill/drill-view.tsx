import { Lines } from "../screen/screen-lines.js";
import { History } from "../screen/screen-view.js";
import { drillLinesOf, type DrillFrame } from "./drill-lines-view.js";

export type DrillViewProps = DrillFrame;

/** The drill as a pure function of its two states: finished runs above, the clock and the live run below. */
export function DrillView(props: DrillViewProps) {
  const finished = <History entries={props.screen.history} />;
  if (props.drill.closed) return finished;
  return (
    <>
      {finished}
      <Lines lines={drillLinesOf(props)} width={props.screen.size.columns} />
    </>
  );
}
