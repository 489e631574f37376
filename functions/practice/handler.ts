import { resolveFeatureFlags } from '../../shared/constants/feature-flags.js';
import { NotFoundError } from '../lib/errors.js';
import { groupHandler, route } from '../lib/http/group-handler.js';
import { getPractice } from './practice-repository.js';
import { PRACTICE_ROUTES } from './routes.js';
import { getUser, listUsers } from './user-repository.js';

async function practiceOf(practiceId: string) {
  const practice = await getPractice(practiceId);
  if (!practice) throw new NotFoundError('Practice not found');
  return practice;
}

export const handler = groupHandler(PRACTICE_ROUTES, {
  'GET /v1/practices/metadata': route({
    minRole: 'employee',
    run: ({ auth }) => practiceOf(auth.practiceId),
  }),
  'GET /v1/practices/users/me': route({
    minRole: 'employee',
    run: async ({ auth }) => {
      const user = await getUser(auth.practiceId, auth.userId);
      if (!user) throw new NotFoundError('User not found');
      return user;
    },
  }),
  'GET /v1/practices/users': route({
    minRole: 'employee',
    run: ({ auth }) => listUsers(auth.practiceId),
  }),
  'GET /v1/practices/feature-gates': route({
    minRole: 'employee',
    run: async ({ auth }) => ({ flags: resolveFeatureFlags((await practiceOf(auth.practiceId)).featureFlags) }),
  }),
});
