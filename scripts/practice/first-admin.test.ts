import { DescribeStackResourcesCommand, DescribeStacksCommand, CloudFormationClient } from '@aws-sdk/client-cloudformation';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { userFromItem } from '../../functions/data/users/user-repository.js';
import { runCli } from './cli.js';
import { ensureAdmin } from './first-admin.js';
import { fakeContext, HARBOR, practiceRoot } from './test-support.js';

const cognito = mockClient(CognitoIdentityProviderClient);
const ddb = mockClient(DynamoDBDocumentClient);
const cfn = mockClient(CloudFormationClient);

const TARGET = { userPoolId: 'us-east-1_Pool1', tableName: 'Tidewell-harbor-data-Table-1', practiceId: 'prc_harbor', practiceName: 'Harbor Family Medicine' };
const ADA = { email: 'Ada@Harbor.example', firstName: 'Ada', lastName: 'Lee' };
const NOW = new Date('2026-12-02T09:00:00Z');
const SUB = '9f1c2d3e-0000-4000-8000-000000000001';

const named = (name: string, message = name) => Object.assign(new Error(message), { name });

beforeEach(() => {
  cognito.reset();
  ddb.reset();
  cfn.reset();
});

describe('first admin', () => {
  it('creates the pool user with an emailed temporary password, makes it admin, and writes the USER# item the app reads', async () => {
    cognito.on(AdminCreateUserCommand).resolves({ User: { Username: SUB, Attributes: [{ Name: 'sub', Value: SUB }] } });
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    ddb.on(PutCommand).resolves({});

    const outcome = await ensureAdmin(
      { cognito: new CognitoIdentityProviderClient({}), ddb: DynamoDBDocumentClient.from(new DynamoDBClient({})) },
      TARGET,
      ADA,
      NOW,
    );

    expect(outcome).toEqual({ poolUser: 'created', userId: SUB, group: 'added', otherGroups: [], userItem: 'written', practiceItem: 'written' });
    expect(cognito.commandCalls(AdminCreateUserCommand).map((c) => c.args[0].input)).toEqual([
      {
        UserPoolId: 'us-east-1_Pool1',
        Username: 'ada@harbor.example',
        DesiredDeliveryMediums: ['EMAIL'],
        UserAttributes: [
          { Name: 'email', Value: 'ada@harbor.example' },
          { Name: 'email_verified', Value: 'true' },
          { Name: 'given_name', Value: 'Ada' },
          { Name: 'family_name', Value: 'Lee' },
          { Name: 'custom:practiceId', Value: 'prc_harbor' },
        ],
      },
    ]);
    // No MessageAction SUPPRESS and no AdminSetUserPassword: Cognito's invitation carries the password.
    expect(cognito.calls().map((c) => c.args[0].constructor.name)).toEqual(['AdminCreateUserCommand', 'AdminAddUserToGroupCommand']);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0].args[0].input).toEqual({
      UserPoolId: 'us-east-1_Pool1',
      Username: 'ada@harbor.example',
      GroupName: 'admin',
    });

    const puts = ddb.commandCalls(PutCommand).map((c) => c.args[0].input);
    expect(puts).toEqual([
      {
        TableName: TARGET.tableName,
        ConditionExpression: 'attribute_not_exists(sk)',
        Item: {
          practiceId: 'prc_harbor',
          sk: `USER#${SUB}`,
          userId: SUB,
          firstName: 'Ada',
          lastName: 'Lee',
          name: 'Ada Lee',
          emailAddress: 'ada@harbor.example',
          cellNumber: null,
          userStatus: 'active',
          educationDegree: null,
          npiNumber: null,
          permissionGroup: 'admin',
          createdAt: '2026-12-02T09:00:00.000Z',
          veradigmUserType: null,
        },
      },
      {
        TableName: TARGET.tableName,
        ConditionExpression: 'attribute_not_exists(sk)',
        Item: {
          practiceId: 'prc_harbor',
          sk: 'PRACTICE',
          practiceName: 'Harbor Family Medicine',
          productDeactivatedAt: null,
          additionalPhoneNumbers: [],
          featureFlags: {},
          createdAt: '2026-12-02T09:00:00.000Z',
        },
      },
    ]);
    // The app's own reader sees an active admin with the name the practice file gave.
    expect(userFromItem(puts[0].Item!)).toMatchObject({
      userId: SUB,
      name: 'Ada Lee',
      permissionGroup: 'admin',
      userStatus: 'active',
      emailAddress: 'ada@harbor.example',
    });
  });

  it('changes nothing on a second run: the existing user keeps its password and group, and both items stay as they were', async () => {
    cognito.on(AdminCreateUserCommand).rejects(named('UsernameExistsException', 'An account with the given email already exists.'));
    cognito.on(AdminGetUserCommand).resolves({
      Username: SUB,
      UserAttributes: [
        { Name: 'sub', Value: SUB },
        { Name: 'custom:practiceId', Value: 'prc_harbor' },
      ],
    });
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'admin' }] });
    ddb.on(PutCommand).rejects(named('ConditionalCheckFailedException', 'The conditional request failed'));

    const outcome = await ensureAdmin(
      { cognito: new CognitoIdentityProviderClient({}), ddb: DynamoDBDocumentClient.from(new DynamoDBClient({})) },
      TARGET,
      ADA,
      NOW,
    );

    expect(outcome).toEqual({ poolUser: 'existing', userId: SUB, group: 'kept', otherGroups: [], userItem: 'existing', practiceItem: 'existing' });
    expect(cognito.calls().map((c) => c.args[0].constructor.name)).toEqual(['AdminCreateUserCommand', 'AdminGetUserCommand', 'AdminListGroupsForUserCommand']);
    expect(cognito.commandCalls(AdminGetUserCommand)[0].args[0].input).toEqual({ UserPoolId: 'us-east-1_Pool1', Username: 'ada@harbor.example' });
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.ConditionExpression)).toEqual(['attribute_not_exists(sk)', 'attribute_not_exists(sk)']);
  });

  it('finishes a run that stopped after the pool user was created: group and items are written, the user is not recreated', async () => {
    cognito.on(AdminCreateUserCommand).rejects(named('UsernameExistsException'));
    cognito.on(AdminGetUserCommand).resolves({
      UserAttributes: [
        { Name: 'sub', Value: SUB },
        { Name: 'custom:practiceId', Value: 'prc_harbor' },
      ],
    });
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [] });
    ddb.on(PutCommand).resolves({});

    const outcome = await ensureAdmin(
      { cognito: new CognitoIdentityProviderClient({}), ddb: DynamoDBDocumentClient.from(new DynamoDBClient({})) },
      TARGET,
      ADA,
      NOW,
    );

    expect(outcome).toMatchObject({ poolUser: 'existing', group: 'added', userItem: 'written' });
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0].args[0].input.GroupName).toBe('admin');
  });

  it('leaves a user of another practice, or one given another role, as it is', async () => {
    const clients = { cognito: new CognitoIdentityProviderClient({}), ddb: DynamoDBDocumentClient.from(new DynamoDBClient({})) };
    cognito.on(AdminCreateUserCommand).rejects(named('UsernameExistsException'));
    cognito.on(AdminGetUserCommand).resolves({
      UserAttributes: [
        { Name: 'sub', Value: SUB },
        { Name: 'custom:practiceId', Value: 'prc_other' },
      ],
    });
    await expect(ensureAdmin(clients, TARGET, ADA, NOW)).rejects.toThrow(
      'ada@harbor.example already exists in the pool with practice id prc_other, not prc_harbor; it was left unchanged.',
    );
    expect(ddb.calls()).toHaveLength(0);

    cognito.on(AdminGetUserCommand).resolves({
      UserAttributes: [
        { Name: 'sub', Value: SUB },
        { Name: 'custom:practiceId', Value: 'prc_harbor' },
      ],
    });
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'provider' }] });
    ddb.on(PutCommand).resolves({});
    const outcome = await ensureAdmin(clients, TARGET, ADA, NOW);
    expect(outcome).toMatchObject({ group: 'other-role', otherGroups: ['provider'], userItem: 'skipped' });
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand).map((c) => c.args[0].input.Item?.sk)).toEqual(['PRACTICE']);
  });
});

describe('practice admin <slug>', () => {
  const dataStack = (outputs: { OutputKey: string; OutputValue: string }[]) => ({
    Stacks: [
      {
        StackName: 'Tidewell-harbor-data',
        StackStatus: 'UPDATE_COMPLETE' as const,
        StackId: 'arn:aws:cloudformation:us-east-1:111122223333:stack/Tidewell-harbor-data/1',
        CreationTime: NOW,
        Outputs: outputs,
      },
    ],
  });

  it('reads the pool and table from the data stack outputs and adds the admin', async () => {
    cfn.on(DescribeStacksCommand, { StackName: 'Tidewell-harbor-data' }).resolves(
      dataStack([
        { OutputKey: 'userPoolId', OutputValue: 'us-east-1_Pool1' },
        { OutputKey: 'tableName', OutputValue: 'Tidewell-harbor-data-Table-1' },
      ]),
    );
    cognito.on(AdminCreateUserCommand).resolves({ User: { Attributes: [{ Name: 'sub', Value: SUB }] } });
    ddb.on(PutCommand).resolves({});
    const ctx = fakeContext(practiceRoot(HARBOR));

    const code = await runCli(['admin', 'harbor', '--email', 'bo@harbor.example', '--first-name', 'Bo', '--last-name', 'Park'], ctx);

    expect(code).toBe(0);
    expect(cfn.calls().map((c) => c.args[0].input)).toEqual([{ StackName: 'Tidewell-harbor-data' }]);
    expect(cognito.commandCalls(AdminCreateUserCommand)[0].args[0].input).toMatchObject({ UserPoolId: 'us-east-1_Pool1', Username: 'bo@harbor.example' });
    expect(ddb.commandCalls(PutCommand)[0].args[0].input).toMatchObject({
      TableName: 'Tidewell-harbor-data-Table-1',
      Item: { sk: `USER#${SUB}`, permissionGroup: 'admin', name: 'Bo Park' },
    });
    expect(ctx.lines.join('\n')).toContain(
      'bo@harbor.example: created in the pool (Cognito emailed the temporary password); added to the admin group; USER# item written',
    );
  });

  it('finds the pool and table among the stack resources when the outputs are missing', async () => {
    cfn.on(DescribeStacksCommand).resolves(dataStack([]));
    cfn.on(DescribeStackResourcesCommand).resolves({
      StackResources: [
        {
          ResourceType: 'AWS::Cognito::UserPool',
          PhysicalResourceId: 'us-east-1_Pool9',
          LogicalResourceId: 'Pool',
          ResourceStatus: 'CREATE_COMPLETE',
          Timestamp: NOW,
        },
        { ResourceType: 'AWS::DynamoDB::Table', PhysicalResourceId: 'table-9', LogicalResourceId: 'Table', ResourceStatus: 'CREATE_COMPLETE', Timestamp: NOW },
      ],
    });
    cognito.on(AdminCreateUserCommand).resolves({ User: { Attributes: [{ Name: 'sub', Value: SUB }] } });
    ddb.on(PutCommand).resolves({});

    expect(
      await runCli(['admin', 'harbor', '--email', 'bo@harbor.example', '--first-name', 'Bo', '--last-name', 'Park'], fakeContext(practiceRoot(HARBOR))),
    ).toBe(0);
    expect(cfn.commandCalls(DescribeStackResourcesCommand)[0].args[0].input).toEqual({ StackName: 'Tidewell-harbor-data' });
    expect(cognito.commandCalls(AdminCreateUserCommand)[0].args[0].input.UserPoolId).toBe('us-east-1_Pool9');
    expect(ddb.commandCalls(PutCommand)[0].args[0].input.TableName).toBe('table-9');
  });

  it('says what is missing, and that the practice must be deployed first, without touching the pool', async () => {
    const ctx = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['admin', 'harbor', '--email', 'bo@harbor.example'], ctx)).toBe(2);
    expect(ctx.errors).toEqual(['admin needs --first-name, --last-name.']);

    cfn.on(DescribeStacksCommand).rejects(named('ValidationError', 'Stack with id Tidewell-harbor-data does not exist'));
    const ctx2 = fakeContext(practiceRoot(HARBOR));
    expect(await runCli(['admin', 'harbor', '--email', 'bo@harbor.example', '--first-name', 'Bo', '--last-name', 'Park'], ctx2)).toBe(1);
    expect(ctx2.errors).toEqual(['Tidewell-harbor-data is not deployed in us-east-1: deploy the practice first (npm run practice -- deploy harbor).']);
    expect(cognito.calls()).toHaveLength(0);
  });
});
