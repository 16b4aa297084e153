/**
 * Bringing a list from another tool (issue 52): what the CLI, the console and the background runs use. The format
 * a header shows (formats.ts), the streamed reading (read.ts, zip.ts), each row's checks (row.ts), the core that
 * counts or imports (run.ts, its shapes in types.ts, the file in file.ts, its report in report.ts, its SQL in sql.ts), and the confirmation e-mails it owes (mail.ts).
 */
export { recogniseFormat } from "./formats";
export { type ImportMailReport, sendImportConfirmations } from "./mail";
export { UnreadableFile } from "./read";
export { importFile } from "./run";
export { IMPORT_SQL } from "./sql";
export {
  type ConsentMode,
  FIRST_REASONS,
  type ImportFile,
  ImportRefused,
  type ImportReport,
  type Refusal,
} from "./types";
export { dropUpload, fileOfBytes, importUploaded, keepUpload, UPLOAD_LIMIT, uploadedFile } from "./upload";
