// The status filter (`--status a,b`): Cairn's statuses, "active" as opencode-swarm users say "live", and a clear error for anything else.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LIVE_STATUSES, parseStatuses } from "../../src/core/enums.js";

test("status filters: each status by name, \"active\" for every live one, unknown ones named in the error", () => {
  assert.deepEqual(parseStatuses("draft,archived"), ["draft", "archived"]);
  // opencode-swarm's entries are "active" while an agent may see them: Cairn's live statuses.
  assert.deepEqual(parseStatuses("active"), [...LIVE_STATUSES]);
  assert.deepEqual(parseStatuses("active,archived"), [...LIVE_STATUSES, "archived"]);
  assert.deepEqual(parseStatuses("candidate,active"), [...LIVE_STATUSES]);
  assert.throws(() => parseStatuses("actve"), /Unknown status actve; use draft, .*active/);
  assert.equal(parseStatuses(undefined), undefined);
});
