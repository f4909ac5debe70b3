/**
 * The task runner a switch runs (RackHD's taskrunner.py, written anew for this service's tasks
 * protocol): a loop that asks `GET /tasks/{node}` for commands, runs each in a shell, and posts
 * the command object back with each command's stdout, stderr and error, as the microkernel does.
 * A 204 means nothing to do yet; a 403 means a new workflow holds a new boot token, so it fetches
 * its profile again for the new address. Python 2 and 3 (switch images carry either).
 */
export function taskRunnerScript(tasksUrl: string, profileUrl: string): string {
  // JSON strings are Python string literals too: a value cannot end the literal early.
  return `# Task runner for network switches (provisioning service)
import json
import re
import subprocess
import time
try:
    from urllib.request import Request, urlopen
    from urllib.error import HTTPError
except ImportError:
    from urllib2 import Request, urlopen, HTTPError

TASKS_URI = ${JSON.stringify(tasksUrl)}
PROFILE_URI = ${JSON.stringify(profileUrl)}
PERIOD = 5


def run(command):
    process = subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    result = {"cmd": command, "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace")}
    result["error"] = None if process.returncode == 0 else {"code": process.returncode}
    return result


while True:
    try:
        answer = urlopen(TASKS_URI)
        if answer.getcode() == 200:
            work = json.loads(answer.read().decode("utf-8"))
            work["tasks"] = [run(task["cmd"]) for task in work.get("tasks", [])]
            body = json.dumps(work).encode("utf-8")
            urlopen(Request(TASKS_URI, body, {"Content-Type": "application/json"}))
            continue
    except HTTPError as error:
        if error.code == 403:
            found = re.search(r'^TASKS_URI = "([^"]+)"', urlopen(PROFILE_URI).read().decode("utf-8"), re.M)
            TASKS_URI = found.group(1) if found else TASKS_URI
    except Exception as error:
        print("task runner: %s" % error)
    time.sleep(PERIOD)
`;
}
