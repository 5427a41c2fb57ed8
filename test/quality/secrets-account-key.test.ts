// An 88-character base64 value ending "==": an Azure Storage or Cosmos DB account key when named one (or named nothing), a SHA-512 digest when named a digest.
import { test } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { findSecrets } from "../../src/quality/secrets.js";

/** 64 bytes in base64, as a SHA-512 digest and an account key both are: 88 characters ending "==". */
const digest = crypto.createHash("sha512").update("left-pad-1.3.0.tgz").digest("base64");
const key = crypto.createHash("sha512").update("a storage account").digest("base64");

test("a SHA-512 digest named a digest, hash, checksum or integrity anywhere in its sentence is not an account key; an 88-character value named a key is", () => {
  assert.equal(digest.length, 88);
  for (const text of [
    `The SHA-512 digest in package-lock.json is ${digest}`,
    `npm's integrity field for lodash-4.17.21.tgz is ${digest}`,
    `the tarball's SHA-512 digest is:\n${digest}`,
    `Expected checksum:\n\n    ${digest}`,
    `the SHA-512 digest of the release tarball that npm computed when the package was published last week is ${digest}`,
    `the hash (SHA-512, base64) of the tarball v1.2.3 is ${digest}`,
    `${digest} is the tarball's SHA-512 digest.`,
    `verify the download against ${digest}, its SHA-512 digest`,
    `Compare ${digest} with the sha512sum output.`,
    `| left-pad | ${digest} | sha512 |`,
    `integrity: sha512-${digest}`,
  ]) assert.deepEqual(findSecrets(text).issues, [], text);
  for (const text of [
    `the storage account key is ${key}`,
    `AccountKey=${key}`,
    `the storage key: ${key}`,
    `the tarball's SHA-512 digest is ${digest}. The storage account key is ${key}`,
    `the connection string v1.2 holds ${key} as its key`,
    `the sha512 check passed after the fix in v1.2.3, and the account key we rotated is ${key}`,
    `pasted ${key} into the portal`,
  ]) {
    const { issues, masked } = findSecrets(text);
    assert.ok(issues.length > 0, `not refused: ${text}`);
    assert.ok(!masked.includes(key), `not masked: ${masked}`);
  }
});
