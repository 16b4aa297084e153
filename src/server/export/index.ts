/**
 * What other features may use of the export (the console's "Download the list" page and its parts): the rest of this
 * folder is its own.
 */
export { download, partFilename } from "./download";
export { PART_SIZE, type PartRange, type PartSize, planParts } from "./parts";
export { EXPORT_FORMATS, EXPORT_TYPES, type ExportFormat, openExport } from "./rows";
export { suppressedLeftOut } from "./store";
