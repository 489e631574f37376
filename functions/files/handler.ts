import { PresignUploadBody } from '../../shared/notes/note-schema.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { FileKeyQuery, presignDownload, presignUpload } from './presign.js';
import { FILE_ROUTES } from './routes.js';

export const handler = groupHandler(FILE_ROUTES, {
  'POST /v1/s3/files': route({ body: PresignUploadBody, run: ({ auth, body }) => presignUpload(auth, body) }),
  'GET /v1/s3/files': route({ query: FileKeyQuery, run: ({ auth, query }) => presignDownload(auth, query.key) }),
});
