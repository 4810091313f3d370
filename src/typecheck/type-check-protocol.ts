/** The messages between the type checker and its worker thread. */
export interface TypeCheckRequest {
  id: number;
  file: string;
  text: string;
}

/** One type error of the learner's file, 1-based like an editor's. */
export interface TypeErrorReport {
  line: number;
  column: number;
  code: number;
  message: string;
}

export interface TypeCheckReply {
  id: number;
  errors: TypeErrorReport[];
}
