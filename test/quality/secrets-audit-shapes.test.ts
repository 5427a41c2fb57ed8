// Secrets written in shapes the last audit found passing: a key element in XML, a `*pass:` YAML field, a Yoda or `.equals` comparison, a Go multi-assignment, a value on the line after its name.
import { test } from "node:test";
import { assertCaught, assertPasses } from "../helpers/secret-verdicts.js";

const PW = "Xq7mZ2wK1";

test("an XML element whose name ends in Key holds a password-like value; a sort, cache or primary key element holds a name", () => {
  assertCaught([
    ["<licenseKey>Xk9#mP2$vL8@qR4!</licenseKey>", "Xk9#mP2$vL8@qR4!"],
    ["<signingKey>Gr33n&Tea#42x</signingKey>", "Gr33n&Tea#42x"],
    ["<masterKey>q8ZtR2vLm9XwK4pN7sYb</masterKey>", "q8ZtR2vLm9XwK4pN7sYb"],
  ]);
  assertPasses(["<sortKey>created_at</sortKey>", "<cacheKey>user:42:name</cacheKey>", "<primaryKey>id</primaryKey>", "<hotKey>Ctrl+Alt+F5</hotKey>", "<licenseKey>${LICENSE_KEY}</licenseKey>"]);
});
