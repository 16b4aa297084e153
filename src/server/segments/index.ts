export { ANSWER_PARAM, answersOf } from "./address";
export * from "./segment";
export { answerRows, SEGMENT_SQL, segmentMatch } from "./sql";
export { createSegmentStore, type OfferedQuestion } from "./store";
