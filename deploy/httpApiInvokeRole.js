/**
 * Serverless plugin, for `package` and `deploy`: the HTTP API invokes the functions through one
 * IAM role instead of one resource-based permission per function.
 *
 * Why: CloudFormation takes at most 500 resources in a stack, and each endpoint cost five
 * (function, log group, permission, route, integration). An integration may name a role API
 * Gateway assumes to call its function (`CredentialsArn`), so the per-function
 * `AWS::Lambda::Permission` goes and every endpoint costs four. The role may invoke only this
 * service's functions of this stage; the scheduled functions keep their own permissions.
 */
const ROLE = "HttpApiInvokeRole";

class HttpApiInvokeRole {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { "after:package:compileEvents": () => this.useRole() };
  }

  useRole() {
    const provider = this.serverless.getProvider("aws");
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    const removed = new Set();
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type === "AWS::Lambda::Permission" && id.endsWith("LambdaPermissionHttpApi")) {
        delete resources[id];
        removed.add(id);
      }
    }
    if (removed.size === 0) return;
    for (const resource of Object.values(resources)) {
      if (resource.Type === "AWS::ApiGatewayV2::Integration" && resource.Properties.IntegrationType === "AWS_PROXY") {
        resource.Properties.CredentialsArn = { "Fn::GetAtt": [ROLE, "Arn"] };
      }
      if (Array.isArray(resource.DependsOn)) resource.DependsOn = resource.DependsOn.filter((id) => !removed.has(id));
      else if (removed.has(resource.DependsOn)) delete resource.DependsOn;
    }
    const functionsOfThisStage = `${this.serverless.service.service}-${provider.getStage()}-*`;
    resources[ROLE] = {
      Type: "AWS::IAM::Role",
      Properties: {
        AssumeRolePolicyDocument: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Principal: { Service: "apigateway.amazonaws.com" }, Action: "sts:AssumeRole" }],
        },
        Policies: [
          {
            PolicyName: "invoke-functions",
            PolicyDocument: {
              Version: "2012-10-17",
              Statement: [
                {
                  Effect: "Allow",
                  Action: "lambda:InvokeFunction",
                  Resource: {
                    "Fn::Sub": `arn:\${AWS::Partition}:lambda:\${AWS::Region}:\${AWS::AccountId}:function:${functionsOfThisStage}`,
                  },
                },
              ],
            },
          },
        ],
      },
    };
  }
}

module.exports = HttpApiInvokeRole;
