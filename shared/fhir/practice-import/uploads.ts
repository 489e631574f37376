/**
 * A practice import's large files go up on their own through the app's presigned upload, and the
 * patient's bundle names the stored key in this attachment extension instead of carrying the bytes.
 * The import's writers (the CLI, Settings > Data import) and the server read the same names here.
 */

/** The attachment extension naming an uploaded file's key. */
export const UPLOADED_FILE_EXTENSION = 'https://tidewell.health/fhir/import/uploaded-file';
/** The folder uploads go to: the server reads only keys under it, so a bundle cannot pull in any other file of the practice. */
export const IMPORT_UPLOAD_FOLDER = 'fhir-imports';
