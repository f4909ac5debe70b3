import { CATCH_ALL, ROUTES } from "../http/routes";
import type { CatchAll, Endpoint } from "../http/routes/endpoint";
import { SCHEDULED, type ScheduledFunction } from "../http/routes/scheduled";
import { allFunctions, describe, type Needs, roleOf, type Store, socketFor, triggeredFor } from "../http/routes/serverlessFunctions";
import { dataStatements } from "../store/dynamodb/iamPolicy";

/*
 * Deploy-time composition (serverless.yml `resources:`, through deploy/functions.js): the route
 * registry's needs, function by function (lib/http/routes/serverlessFunctions.ts), made into IAM
 * roles with the table's keys (lib/store/dynamodb/iamPolicy.ts).
 */

const LAMBDA_TRUST = {
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
};
/** Logs; and X-Ray's segments when the stage traces (TRACING=on). */
const LOGS = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole";
const TRACES = "arn:aws:iam::aws:policy/AWSXRayDaemonWriteAccess";
const TARGETS = {
  table: { "Fn::GetAtt": ["DataTable", "Arn"] },
  // Its indexes (GSI1, GSI2): the leading-keys condition still bounds a query to its stores' keys.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
  index: { "Fn::Sub": "${DataTable.Arn}/index/*" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
  bucketObjects: { "Fn::Sub": "${FilesBucket.Arn}/files/*" },
  // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
  logObjects: { "Fn::Sub": "${FilesBucket.Arn}/install-logs/*" },
};

/** Reads the user list (AUTH_USERS_PARAMETER) from SSM, for the roles of the functions that ask for credentials. */
function userListPolicy(roles: string[], parameter: string) {
  return {
    Type: "AWS::IAM::ManagedPolicy",
    Properties: {
      Description: "Read the user list (AUTH_USERS_PARAMETER) from SSM Parameter Store",
      Roles: roles.map((name) => ({ Ref: name })),
      PolicyDocument: {
        Version: "2012-10-17",
        Statement: [
          {
            Effect: "Allow",
            Action: "ssm:GetParameter",
            Resource: { "Fn::Sub": `arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter${parameter}` },
          },
          // A SecureString under the account's default key (aws/ssm) is decrypted through SSM.
          {
            Effect: "Allow",
            Action: "kms:Decrypt",
            Resource: "*",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a template string
            Condition: { StringEquals: { "kms:ViaService": { "Fn::Sub": "ssm.${AWS::Region}.amazonaws.com" } } },
          },
        ],
      },
    },
  };
}

/** A role allowing what `needs` says and no more (its logs aside). */
function role(needs: Needs, tracing: boolean) {
  const statements = [
    ...dataStatements(needs.access, TARGETS),
    ...(needs.deadLetters
      ? [{ Effect: "Allow", Action: ["sqs:SendMessage"], Resource: [{ "Fn::GetAtt": ["PollerDeadLetters", "Arn"] }] }]
      : []),
    ...(needs.eventStream
      ? [
          {
            Effect: "Allow",
            Action: ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams"],
            Resource: [{ "Fn::GetAtt": ["DataTable", "StreamArn"] }],
          },
          { Effect: "Allow", Action: ["sqs:SendMessage"], Resource: [{ "Fn::GetAtt": ["EventDeadLetters", "Arn"] }] },
        ]
      : []),
    ...(needs.eventBus ? [{ Effect: "Allow", Action: ["events:PutEvents"], Resource: [{ "Fn::GetAtt": ["EventBus", "Arn"] }] }] : []),
    // Posting to the relays' connections only (not reading or closing them), on this stack's WebSocket API.
    ...(needs.push
      ? [
          {
            Effect: "Allow",
            Action: ["execute-api:ManageConnections"],
            Resource: [
              {
                "Fn::Sub": `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${WebsocketsApi}/*/POST/@connections/*`,
              },
            ],
          },
        ]
      : []),
    // Closing the relays' connections only (a revoked credential's), on this stack's WebSocket API.
    ...(needs.closes
      ? [
          {
            Effect: "Allow",
            Action: ["execute-api:ManageConnections"],
            Resource: [
              {
                "Fn::Sub": `arn:\${AWS::Partition}:execute-api:\${AWS::Region}:\${AWS::AccountId}:\${WebsocketsApi}/*/DELETE/@connections/*`,
              },
            ],
          },
        ]
      : []),
    ...(needs.deliveryQueue
      ? [
          {
            Effect: "Allow",
            Action:
              needs.deliveryQueue === "send"
                ? ["sqs:SendMessage"]
                : ["sqs:ChangeMessageVisibility", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:ReceiveMessage", "sqs:SendMessage"],
            Resource: [{ "Fn::GetAtt": ["DeliveryQueue", "Arn"] }],
          },
        ]
      : []),
  ];
  return {
    Type: "AWS::IAM::Role",
    Properties: {
      Description: `Functions that need: ${describe(needs)}`.slice(0, 1000),
      AssumeRolePolicyDocument: LAMBDA_TRUST,
      ManagedPolicyArns: [LOGS, ...(tracing ? [TRACES] : [])],
      ...(statements.length > 0 && {
        Policies: [{ PolicyName: "Data", PolicyDocument: { Version: "2012-10-17", Statement: statements } }],
      }),
    },
  };
}

/** What the deploying shell says about the stack (not about the functions: lib/config/settings.ts has those). */
export interface StackSettings {
  /** AUTH_USERS_PARAMETER: the SSM parameter holding the user list, or "". */
  authUsersParameter: string;
  /** TRACING=on: X-Ray traces of the functions. */
  tracing: boolean;
  /** ALARM_EMAIL: an address subscribed to the alarm topic, or "". */
  alarmEmail: string;
}

/**
 * The stack's resources that depend on the registry or on the deploying shell, made here rather
 * than with CloudFormation conditions (which cfn-lint rightly calls constant once the framework
 * has put the values in): the functions' roles (with STORE=dynamodb one per distinct set of needs,
 * each allowing exactly what its functions' entries declare; with STORE=memory, whose functions
 * touch no AWS data, one role per access class), the user list readable by the roles of the functions
 * that ask for credentials only, and the alarm topic's email subscription.
 */
export function stackResources(
  store: Store,
  stack: StackSettings,
  routes: readonly Endpoint[] = ROUTES,
  catchAll: CatchAll = CATCH_ALL,
  scheduled: readonly ScheduledFunction[] = SCHEDULED,
): { Resources: Record<string, unknown> } {
  const roles = new Map<string, Needs>();
  for (const fn of allFunctions(routes, catchAll, scheduled, triggeredFor(store), socketFor(store))) {
    const name = roleOf(store, fn.needs);
    // Memory: a role per access class, with that class's non-data needs only (roleOf).
    roles.set(name, store === "memory" ? { access: {}, basicAuth: fn.needs.basicAuth, deadLetters: fn.needs.deadLetters } : fn.needs);
  }
  const resources: Record<string, unknown> = {};
  for (const [name, needs] of roles) resources[name] = role(needs, stack.tracing);
  const readers = [...roles].filter(([, needs]) => needs.basicAuth).map(([name]) => name);
  if (stack.authUsersParameter) resources.AuthUsersParameterAccess = userListPolicy(readers, stack.authUsersParameter);
  if (stack.alarmEmail) {
    resources.AlarmEmailSubscription = {
      Type: "AWS::SNS::Subscription",
      Properties: { TopicArn: { Ref: "AlarmTopic" }, Protocol: "email", Endpoint: stack.alarmEmail },
    };
  }
  return { Resources: resources };
}
