import { CreateFolderBody } from '../../shared/files/drive.js';
import { PresignUploadBody } from '../../shared/notes/presign-upload.js';
import { groupHandler, lazyRoutes, route } from '../lib/http/group-handler.js';
import { ValidationError } from '../lib/errors.js';
import { requirePermission } from '../lib/http/permissions.js';
import { createDriveFolder, deleteDriveFile, listDriveFolder } from './drive.js';
import { FileKeyQuery, FileReadQuery, presignDownload, presignUpload } from '../lib/files/presign.js';
import { FAX_ROUTE_KEYS, FILE_ROUTES } from './routes.js';

export const handler = groupHandler(FILE_ROUTES, {
  'POST /v1/s3/files': route({ body: PresignUploadBody, run: ({ auth, body }) => presignUpload(auth, body) }),
  'GET /v1/s3/files': route({
    query: FileReadQuery,
    run: ({ auth, query }) => {
      if (query.key) return presignDownload(auth, query.key);
      if (query.prefix) {
        requirePermission(auth, 'files.drive');
        return listDriveFolder(auth, query.prefix);
      }
      throw new ValidationError('A key or a prefix is required', { key: 'is required' });
    },
  }),
  'DELETE /v1/s3/files': route({ query: FileKeyQuery, permission: 'files.drive', run: ({ auth, query }) => deleteDriveFile(auth, query.key) }),
  'POST /v1/s3/folders': route({ body: CreateFolderBody, permission: 'files.drive', run: ({ auth, body }) => createDriveFolder(auth, body) }),
  ...lazyRoutes(FAX_ROUTE_KEYS, () => import('./fax-routes.js').then((m) => m.FAX_ROUTES)),
});
