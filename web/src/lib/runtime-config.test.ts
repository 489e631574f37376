import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config.js';

const deployed = {
  apiUrl: 'https://abc.execute-api.us-east-1.amazonaws.com',
  webUrl: 'https://d1.cloudfront.net',
  graphqlUrl: 'https://xyz.appsync-api.us-east-1.amazonaws.com/graphql',
  userPoolId: 'us-east-1_abc',
  userPoolClientId: 'client',
  cognitoEndpoint: '',
  region: 'us-east-1',
  filesBucket: 'files',
  local: false,
};

describe('parseRuntimeConfig', () => {
  it('keeps what the web needs from the stack outputs and drops the rest', () => {
    expect(parseRuntimeConfig(deployed)).toEqual({
      apiUrl: deployed.apiUrl,
      graphqlUrl: deployed.graphqlUrl,
      userPoolId: deployed.userPoolId,
      userPoolClientId: deployed.userPoolClientId,
      cognitoEndpoint: '',
      region: deployed.region,
      local: false,
    });
  });

  it('treats a config without `local` as deployed', () => {
    const { local: _local, cognitoEndpoint: _endpoint, ...rest } = deployed;
    const config = parseRuntimeConfig(rest);
    expect(config.local).toBe(false);
    expect('cognitoEndpoint' in config).toBe(false);
  });

  it('names the field that is missing or of the wrong kind', () => {
    expect(() => parseRuntimeConfig({ ...deployed, userPoolId: '' })).toThrow('config.json: userPoolId must be a non-empty string');
    expect(() => parseRuntimeConfig({ ...deployed, region: undefined })).toThrow('config.json: region must be a non-empty string');
    expect(() => parseRuntimeConfig({ ...deployed, local: 'yes' })).toThrow('config.json: local must be true or false');
    expect(() => parseRuntimeConfig([])).toThrow('config.json: expected an object');
  });
});
