// The machine's network settings (proxy, extra CA certificates, npm's global config) for child processes given a fresh HOME.
import { execFileSync } from "node:child_process";

/** Variables that say how this machine reaches the network; none of them is user data. */
const PASS_THROUGH = [
  "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
  "npm_config_registry", "npm_config_cafile",
];

let globalConfig: string | undefined | null = null;

/**
 * npm reads its global config from `<prefix>/etc/npmrc`, so `npm install --global --prefix <tmp>`
 * (or a sandboxed HOME) would lose the machine's registry CA and proxy: installs then retry TLS
 * failures for minutes. The real global config file is named explicitly instead.
 */
function npmGlobalConfig(): string | undefined {
  if (globalConfig === null) {
    try {
      globalConfig = execFileSync("npm", ["config", "get", "globalconfig"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || undefined;
    } catch {
      globalConfig = undefined;
    }
  }
  return globalConfig;
}

export function networkEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of PASS_THROUGH) if (process.env[k] !== undefined) env[k] = process.env[k];
  const g = npmGlobalConfig();
  if (g) env.npm_config_globalconfig = g;
  return env;
}
