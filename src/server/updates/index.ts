/**
 * What other features use of updates: the console and the CLI write, preview and send them; the status page shows
 * the choice. The consent and unsubscribe endpoints are this folder's own (handler.ts).
 */
export { ONE_CLICK, UPDATES_PATHS, UPDATES_WORDS, UPDATES_WORDS_VERSION, updatesSection } from "./consent";
export { isDraftKey, readDraft, saveDraft } from "./drafts";
export { bodyHtml, TEST_SUBJECT_PREFIX, updateEmail, updatesKey } from "./message";
export { checkDraft, type Draft, MAX_BODY_BYTES, NOBODY_TO_REACH } from "./rules";
export { sendUpdate, UPDATE_STALE_SECONDS, type UpdateReport, type UpdateRun } from "./send";
export { findSameUpdate, type StartedUpdate, sendAgain, startUpdate, wordsTicket } from "./start";
export { statusLinkOf, statusPageLink, statusToken } from "./status-token";
export { type Audience, createUpdateStore, type PastUpdate, type UpdateStore } from "./store";
