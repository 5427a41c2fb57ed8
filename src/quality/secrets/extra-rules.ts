// Token formats gitleaks' rule set lacks, written as gitleaks rules so one engine runs them all.
// Each follows secretlint's rule for that provider (https://github.com/secretlint/secretlint, MIT,
// Copyright (c) 2020 azu) or the provider's documented prefix, in RE2 (no look-around: a group holds the secret).
import type { GitleaksRule } from "./gitleaks-types.js";

const END = "(?:[^A-Za-z0-9_-]|$)";

export const EXTRA_RULES: GitleaksRule[] = [
  { id: "cloudflare-user-token", regex: `\\b((?:cfk|cfut|cfat)_[A-Za-z0-9]{40}[0-9a-f]{8})${END}`, keywords: ["cfk_", "cfut_", "cfat_"], entropy: 3 },
  { id: "vercel-token", regex: `\\b((?:vcp|vci|vca|vcr|vck)_[A-Za-z0-9]{20,60})${END}`, keywords: ["vcp_", "vci_", "vca_", "vcr_", "vck_"], entropy: 3 },
  { id: "docker-pat", regex: `\\b(dckr_pat_[A-Za-z0-9_-]{27})${END}`, keywords: ["dckr_pat_"], entropy: 3 },
  { id: "databricks-token", regex: `\\b(dapi[A-Fa-f0-9]{32}(?:-[0-9])?)(?:[^A-Fa-f0-9]|$)`, keywords: ["dapi"], entropy: 3 },
  { id: "shopify-token", regex: `\\b((?:shppa|shpca|shpat|shpss)_[A-Za-z0-9]{32,64})${END}`, keywords: ["shppa_", "shpca_", "shpat_", "shpss_"], entropy: 3 },
  { id: "tailscale-key", regex: `\\b(tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60})(?:[^0-9A-Za-z_]|$)`, keywords: ["tskey-"], entropy: 3 },
  { id: "github-app-installation-token", regex: `\\b(ghs_[0-9]{1,20}_[A-Za-z0-9_-]{1,1000}\\.[A-Za-z0-9_-]{1,1000}\\.[A-Za-z0-9_-]{1,1000})${END}`, keywords: ["ghs_"] },
  // A key or token in a request header, as curl, wget and HTTP clients' docs write it (gitleaks' own
  // header rule needs the whole curl command before it); a value without a digit is a placeholder (YOUR_API_KEY).
  {
    id: "http-header-token",
    regex: `(?i)(?:-H|--header)(?:=|[ \\t]{0,5})["']?(?:x-)?(?:[a-z]+-)?(?:api-?)?(?:key|token)[ \\t]{0,5}:[ \\t]{0,5}([\\w=~@.+/-]{8,})`,
    keywords: ["key", "token"],
    // As gitleaks' curl-auth-header: a 16-digit hex token measures ~2.9.
    entropy: 2.75,
    allowlists: [{ regexes: ["^[^0-9]*$"] }],
  },
  // Stripe's (and Svix's) webhook signing secret: whoever holds it can forge the events a service trusts.
  { id: "stripe-webhook-secret", regex: `\\b(whsec_[A-Za-z0-9+/]{24,88}={0,2})(?:[^A-Za-z0-9+/=]|$)`, keywords: ["whsec_"], entropy: 3 },
  // Formats Nosey Parker's rules know (https://github.com/praetorian-inc/noseyparker, Apache-2.0) and gitleaks' do not, or only beside a keyword.
  { id: "doppler-token", regex: `\\b(dp\\.(?:ct|st|sa|scim|audit|pt)\\.(?:[a-z0-9_-]{1,40}\\.)?[A-Za-z0-9]{40,44})(?:[^A-Za-z0-9]|$)`, keywords: ["dp.ct.", "dp.st.", "dp.sa.", "dp.scim.", "dp.audit.", "dp.pt."], entropy: 3 },
  { id: "dependency-track-api-key", regex: `\\b(odt_[A-Za-z0-9]{32,40})${END}`, keywords: ["odt_"], entropy: 3 },
  { id: "tavily-api-key", regex: `\\b(tvly-(?:dev-)?[A-Za-z0-9]{32})${END}`, keywords: ["tvly-"], entropy: 3 },
  { id: "twitch-stream-key", regex: `\\b(live_[0-9]{6,12}_[A-Za-z0-9]{30})${END}`, keywords: ["live_"], entropy: 3 },
  // A bot's numeric id, a colon, then "AA" and the secret: the shape alone tells it (gitleaks wants the word "telegram" near).
  { id: "telegram-bot-token", regex: `\\b([0-9]{8,10}:AA[A-Za-z0-9_-]{32,33})${END}`, keywords: [":aa"], entropy: 3 },
  { id: "new-relic-license-key", regex: `\\b([a-z0-9]{36}NRAL)\\b`, keywords: ["nral"], entropy: 3 },
  { id: "salesforce-access-token", regex: `\\b(00D[0-9A-Za-z]{12,15}![0-9A-Za-z._]{80,200})`, keywords: ["00d"], entropy: 3 },
  // kubeadm's join token; its docs' example (abcdef.0123456789abcdef) is a stand-in.
  { id: "kubernetes-bootstrap-token", regex: `\\b([a-z0-9]{6}\\.[a-z0-9]{16})\\b`, keywords: ["kubeadm", "bootstrap", "token-secret"], entropy: 3, allowlists: [{ regexes: ["^abcdef\\.0123456789abcdef$"] }] },
  { id: "adafruit-io-key", regex: `\\b(aio_[A-Za-z0-9]{28})${END}`, keywords: ["aio_"], entropy: 3 },
  { id: "crates-io-token", regex: `\\b(cio[A-Za-z0-9]{32})\\b`, keywords: ["cio"], entropy: 3.5 },
  // Azure DevOps' newer personal access tokens carry "AZDO" near their end.
  { id: "azure-devops-pat", regex: `\\b([A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4})\\b`, keywords: ["azdo"], entropy: 3 },
  { id: "nuget-api-key", regex: `\\b(oy2[a-z0-9]{43})${END}`, keywords: ["oy2"], entropy: 3 },
  // gitleaks' Sourcegraph and Square rules want a quote, a space or `;` after the token: in HTML or Markdown (`…<br/>`) they miss it.
  { id: "sourcegraph-token", regex: `\\b(sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40})(?:[^A-Za-z0-9_]|$)`, keywords: ["sgp_"], entropy: 3 },
  { id: "square-token", regex: `\\b(sq0atp-[\\w-]{22,60})${END}`, keywords: ["sq0atp-"], entropy: 3 },
  // gitleaks reads a New Relic user key only beside the words "new relic"; its NRAK- prefix says it alone.
  { id: "new-relic-user-key", regex: `\\b(NRAK-[A-Za-z0-9]{27})${END}`, keywords: ["nrak-"], entropy: 3 },
  // Vault's long service and batch tokens (s.CAES…, b.CAES…): gitleaks knows only the 24-character s. form and hvs.
  { id: "vault-token", regex: `\\b([sb]\\.CAES[A-Za-z0-9_-]{40,400})${END}`, keywords: ["s.caes", "b.caes"], entropy: 3 },
  // Vault ≥ 1.10's service, batch and recovery tokens at any length (gitleaks reads hvs. and hvb. only at their full length, hvr. not at all).
  { id: "vault-token", regex: `\\b(hv[sbr]\\.[A-Za-z0-9_-]{24,500})${END}`, keywords: ["hvs.", "hvb.", "hvr."], entropy: 3.5 },
  // As Nosey Parker's rules: TrueNAS API keys handed to auth.login_with_api_key, Okta API tokens near the word,
  // ThingsBoard device tokens in the path of the device API, Code Climate's reporter id, Postmark's server token.
  { id: "truenas-api-key", regex: `"params"\\s*:\\s*\\[\\s*"(\\d{1,6}-[A-Za-z0-9]{64})"`, keywords: ['"params"'], entropy: 4 },
  { id: "okta-api-token", regex: `(?is)okta.{0,40}\\b(00[a-z0-9_-]{39}[a-z0-9_])${END}`, keywords: ["okta"], entropy: 3.5 },
  {
    id: "thingsboard-access-token",
    regex: `/api/v1/([A-Za-z0-9]{20})/(?:telemetry|attributes|rpc|claim)\\b`,
    keywords: ["/api/v1/"],
    entropy: 3,
    allowlists: [{ regexes: ["^[^0-9]*$"] }],
  },
  // Prefixes that say the provider alone, as Nosey Parker's rules read them; gitleaks wants the provider's name near, or lacks them.
  { id: "groq-api-key", regex: `\\b(gsk_[A-Za-z0-9]{50,54})${END}`, keywords: ["gsk_"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "new-relic-api-key", regex: `\\b(NRAA-[a-fA-F0-9]{27}|NRRA-[a-fA-F0-9]{42}|NRI[IQ]-[A-Za-z0-9_-]{32})${END}`, keywords: ["nraa-", "nrra-", "nrii-", "nriq-"], entropy: 3 },
  { id: "new-relic-pixie-key", regex: `\\b(px-(?:api|dep)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})\\b`, keywords: ["px-api-", "px-dep-"], entropy: 3 },
  { id: "square-oauth-secret", regex: `\\b(sq0csp-[A-Za-z0-9_-]{43})${END}`, keywords: ["sq0csp-"], entropy: 3 },
  { id: "stackhawk-api-key", regex: `\\b(hawk\\.[A-Za-z0-9_-]{20}\\.[A-Za-z0-9_-]{20})${END}`, keywords: ["hawk."], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "jina-api-key", regex: `\\b(jina_[A-Za-z0-9]{60})${END}`, keywords: ["jina_"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "firecrawl-api-key", regex: `\\b(fc-[a-f0-9]{32})${END}`, keywords: ["fc-"], entropy: 3 },
  { id: "bitbucket-app-password", regex: `\\b(ATBB[A-Za-z0-9]{32,40})${END}`, keywords: ["atbb"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  // Dropbox's short-lived access tokens, old (sl.) and new (sl.u.).
  { id: "dropbox-access-token", regex: `\\b(sl\\.(?:u\\.)?[A-Za-z0-9_-]{130,1000})${END}`, keywords: ["sl."], entropy: 4 },
  // The SECRET_KEY `django-admin startproject` writes into settings.py: the project's real key until someone replaces it.
  { id: "django-secret-key", regex: `\\b(django-insecure-[a-z0-9!@#$%^&*(=+)_-]{40,60})`, keywords: ["django-insecure-"], entropy: 3.5 },
  { id: "aws-appsync-api-key", regex: `\\b(da2-[a-z0-9]{26})${END}`, keywords: ["da2-"], entropy: 3 },
  { id: "amazon-mws-auth-token", regex: `\\b(amzn\\.mws\\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b`, keywords: ["amzn.mws."], entropy: 3 },
  { id: "segment-public-api-token", regex: `\\b(sgp_[A-Za-z0-9]{64})${END}`, keywords: ["sgp_"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "gcp-oauth-client-secret", regex: `\\b(GOCSPX-[A-Za-z0-9_-]{28})${END}`, keywords: ["gocspx-"], entropy: 3.5 },
  // Mailchimp's key ends in its data centre (-us13); gitleaks wants the word "mailchimp" near.
  { id: "mailchimp-api-key", regex: `\\b([0-9a-f]{32}-us[0-9]{1,2})\\b`, keywords: ["-us"], entropy: 3 },
  // Mapbox's secret (sk.) and temporary (tk.) tokens: base64 JSON, then a signature. Public pk. tokens are meant to ship in a page.
  { id: "mapbox-secret-token", regex: `\\b([st]k\\.eyJ[A-Za-z0-9_-]{20,300}\\.[A-Za-z0-9_-]{20,30})${END}`, keywords: ["sk.eyj", "tk.eyj"], entropy: 3.5 },
  // Keys of AI and developer platforms by the prefix their consoles print, which gitleaks' rules lack.
  // A value without a digit after a short prefix (re_, r8_, phx_, gsk_…) reads as a name in code (re_validate_…), not a key:
  // a random key of 30+ base62 characters lacks a digit well under 1% of the time.
  { id: "pinecone-api-key", regex: `\\b(pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{50,80})${END}`, keywords: ["pcsk_"], entropy: 3.5 },
  { id: "langsmith-api-key", regex: `\\b(lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10})${END}`, keywords: ["lsv2_"], entropy: 3 },
  { id: "openrouter-api-key", regex: `\\b(sk-or-v1-[a-f0-9]{64})${END}`, keywords: ["sk-or-v1-"], entropy: 3 },
  { id: "xai-api-key", regex: `\\b(xai-[A-Za-z0-9]{70,90})${END}`, keywords: ["xai-"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "replicate-api-token", regex: `\\b(r8_[A-Za-z0-9]{37})${END}`, keywords: ["r8_"], entropy: 3.5 , allowlists: [{ regexes: ["^r8_[^0-9]*$"] }] },
  { id: "figma-pat", regex: `\\b(figd_[A-Za-z0-9_-]{36,60})${END}`, keywords: ["figd_"], entropy: 3.5, allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "supabase-token", regex: `\\b(sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{24,60})${END}`, keywords: ["sbp_", "sb_secret_"], entropy: 3 },
  { id: "notion-api-token", regex: `\\b(ntn_[0-9]{11}[A-Za-z0-9]{35})${END}`, keywords: ["ntn_"], entropy: 3.5 },
  // PostHog's personal keys may hold `_` (phx_…_…), as Kingfisher's rule reads them.
  { id: "posthog-personal-api-key", regex: `\\b(phx_[A-Za-z0-9_]{40,50})${END}`, keywords: ["phx_"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  { id: "buildkite-api-token", regex: `\\b(bkua_[a-f0-9]{40})${END}`, keywords: ["bkua_"], entropy: 3 },
  { id: "braintree-access-token", regex: `\\b(access_token\\$(?:production|sandbox)\\$[0-9a-z]{16}\\$[0-9a-f]{32})\\b`, keywords: ["access_token$"], entropy: 3 },
  // Short-lived cloud credentials whose first characters say what they are: Google's OAuth access (ya29.) and refresh (1//0)
  // tokens, and AWS STS session tokens (base64 beginning "IQoJb3JpZ2luX2Vj" or "FwoGZXIvYXdzE"), plain or URL-encoded in a signed link.
  { id: "gcp-oauth-access-token", regex: `\\b(ya29\\.[A-Za-z0-9_-]{50,1000})${END}`, keywords: ["ya29."], entropy: 4 },
  { id: "gcp-oauth-refresh-token", regex: `(?:^|[^A-Za-z0-9_/-])(1//0[A-Za-z0-9_-]{40,500})${END}`, keywords: ["1//0"], entropy: 4 },
  {
    id: "aws-session-token",
    regex: `\\b((?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)(?:[A-Za-z0-9/+=]|%2[BbFf]|%3[Dd]){100,1000}(?:[A-Za-z0-9/+=]|%2[BbFf]|%3[Dd]){0,1000}(?:[A-Za-z0-9/+=]|%2[BbFf]|%3[Dd]){0,1000})`,
    keywords: ["iqojb3jpz2lux2vj", "fwogzxivyxdze"],
    entropy: 4,
  },
  // Firebase Cloud Messaging's legacy server key: whoever holds it can push to every installed app.
  { id: "firebase-fcm-server-key", regex: `\\b(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{134})${END}`, keywords: ["apa91b"], entropy: 4 },
  { id: "nvidia-api-key", regex: `\\b(nvapi-[A-Za-z0-9_-]{64})${END}`, keywords: ["nvapi-"], entropy: 3.5 },
  { id: "langfuse-secret-key", regex: `\\b(sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b`, keywords: ["sk-lf-"], entropy: 3 },
  { id: "cerebras-api-key", regex: `\\b(csk-[a-z0-9]{48})${END}`, keywords: ["csk-"], entropy: 3.5 },
  { id: "resend-api-key", regex: `\\b(re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24})${END}`, keywords: ["re_"], entropy: 3.5 , allowlists: [{ regexes: ["^[^0-9]*$"] }] },
  // The password Jenkins' setup wizard prints to its log: whoever reads it can take over the instance.
  { id: "jenkins-setup-password", regex: `(?i)password to proceed to installation:\\s{0,10}([a-f0-9]{32})\\b`, keywords: ["proceed to installation"], entropy: 3 },
  // A Jenkins API token or CSRF crumb a few characters after the word (`Jenkins-Crumb:…`, `JENKINS_TOKEN=…`), as Nosey Parker's np.jenkins.1.
  {
    id: "jenkins-token",
    regex: `(?i)jenkins.{0,12}(?:(?:crumb|token).{0,10})?\\b([0-9a-f]{32,36}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[^0-9a-f-]|$)`,
    keywords: ["jenkins"],
    entropy: 3,
  },
  // Prefixes the providers document and neither gitleaks' rules (which want the provider's name near) nor Nosey Parker's read alone:
  // SonarQube's user, project and global analysis tokens (docs.sonarsource.com, "Managing your tokens"), Plaid's access tokens
  // (plaid.com/docs, "access-<environment>-<uuid>"), Airtable's personal access tokens (pat….<64 hex>), MailerSend's API tokens.
  { id: "sonarqube-token", regex: `\\b((?:squ|sqp|sqa)_[a-f0-9]{40})${END}`, keywords: ["squ_", "sqp_", "sqa_"], entropy: 3 },
  {
    id: "plaid-access-token",
    regex: `\\b(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b`,
    keywords: ["access-sandbox-", "access-development-", "access-production-"],
    entropy: 3,
  },
  { id: "airtable-pat", regex: `\\b(pat[A-Za-z0-9]{14}\\.[a-f0-9]{64})\\b`, keywords: ["pat"], entropy: 3.5 },
  { id: "mailersend-api-token", regex: `\\b(mlsn\\.[a-f0-9]{64})\\b`, keywords: ["mlsn."], entropy: 3 },
  // Slack's older app-level token shape, as Nosey Parker's np.slack.5 reads it (gitleaks' slack-app-token knows xapp-1-A…-…-… only).
  { id: "slack-app-token", regex: `\\b(xapp-[0-9]{12}-[A-Za-z0-9/+]{24})(?:[^A-Za-z0-9/+]|$)`, keywords: ["xapp-"], entropy: 3 },
  { id: "codeclimate-reporter-id", regex: `(?i)cc_test_reporter_id["']?\\s*[:=]\\s*["']?([a-f0-9]{64})\\b`, keywords: ["cc_test_reporter_id"], entropy: 3 },
  {
    id: "postmark-server-token",
    regex: `(?i)postmark[\\w.-]{0,30}["']?\\s*[:=]\\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b`,
    keywords: ["postmark"],
    entropy: 3,
  },
  // Prefixes the providers' consoles print that Kingfisher's rules (mongodb/kingfisher, Apache-2.0) read and gitleaks' do not, or only
  // beside the provider's name: DeepSeek (sk- and 32 hex), ElevenLabs (sk_ and 48 hex), LaunchDarkly's API, SDK and mobile keys
  // (api-, sdk-, mob- and a UUID), MongoDB Atlas service-account secrets, Sourcegraph Cody keys, Teamwork's API tokens, Courier's
  // production keys, Scrapfly's keys, Ubidots tokens; and Slack's rotating tokens at the lengths Slack issues (gitleaks reads
  // xoxe.xoxp- at 163–166 characters and xoxe- at 146 only). Not Mailgun's key-<32 hex> alone: a cache key named after an MD5 has that shape.
  { id: "deepseek-api-key", regex: `\\b(sk-[a-f0-9]{32})${END}`, keywords: ["sk-"], entropy: 3 },
  { id: "elevenlabs-api-key", regex: `\\b(sk_[a-f0-9]{48})${END}`, keywords: ["sk_"], entropy: 3 },
  { id: "launchdarkly-key", regex: `\\b((?:api|sdk|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\\b`, keywords: ["api-", "sdk-", "mob-"], entropy: 3 },
  { id: "mongodb-atlas-service-account-secret", regex: `\\b(mdb_sa_sk_[A-Za-z0-9_-]{40})${END}`, keywords: ["mdb_sa_sk_"], entropy: 3.5 },
  { id: "sourcegraph-cody-key", regex: `\\b(slk_[a-f0-9]{64})${END}`, keywords: ["slk_"], entropy: 3 },
  { id: "teamwork-api-token", regex: `\\b(tkn\\.v1_[A-Za-z0-9+/]{60,100}={0,2})(?:[^A-Za-z0-9+/=]|$)`, keywords: ["tkn.v1_"], entropy: 3.5 },
  { id: "slack-rotating-token", regex: `\\b(xoxe\\.xox[bp]-[0-9]-[A-Za-z0-9]{140,180}|xoxe-[0-9]-[A-Za-z0-9]{130,160})${END}`, keywords: ["xoxe"], entropy: 3.5 },
  { id: "courier-api-key", regex: `\\b(pk_prod_[A-Za-z0-9]{28})${END}`, keywords: ["pk_prod_"], entropy: 3 },
  { id: "scrapfly-api-key", regex: `\\b(scp-(?:live|test)-[a-f0-9]{32})${END}`, keywords: ["scp-live-", "scp-test-"], entropy: 3 },
  { id: "ubidots-token", regex: `\\b(BBFF-[A-Za-z0-9]{30})${END}`, keywords: ["bbff-"], entropy: 3.5 },
  // Prefixed formats mazen160/secrets-patterns-db (CC BY-SA 4.0) and americanexpress/earlybird (Apache-2.0) read and these rules did not:
  // Slack's legacy four-part tokens with a base36 tail (gitleaks reads xoxs-/xoxo- with a hex tail only), Flutterwave's live secret keys
  // (gitleaks: FLWSECK_TEST- only), Apify's API tokens, Dynatrace tokens of every type (dt0s01., dt0a01.; gitleaks: dt0c01. only), New
  // Relic's synthetics private-location keys, Close's API keys.
  { id: "slack-legacy-token", regex: `\\b(xox[aboprs]-[0-9]{6,14}-[0-9]{6,14}-[0-9]{6,14}-[A-Za-z0-9]{24,40})${END}`, keywords: ["xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-"], entropy: 3 },
  { id: "flutterwave-secret-key", regex: `\\b(FLWSECK(?:_TEST)?-[A-Za-z0-9]{32}-X)\\b`, keywords: ["flwseck"], entropy: 3 },
  { id: "apify-api-token", regex: `\\b(apify_api_[A-Za-z0-9]{36})${END}`, keywords: ["apify_api_"], entropy: 3.5 },
  { id: "dynatrace-api-token", regex: `\\b(dt0[a-z][0-9]{2}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{64})${END}`, keywords: ["dt0"], entropy: 3.5 },
  { id: "new-relic-synthetics-location-key", regex: `\\b(NRSP-[a-z]{2}[0-9]{2}[a-f0-9]{31})${END}`, keywords: ["nrsp-"], entropy: 3 },
  { id: "close-api-key", regex: `\\b(api_[A-Za-z0-9]{25}\\.[A-Za-z0-9]{22})${END}`, keywords: ["api_"], entropy: 3.5 },
  // Microsoft's identifiable keys, as microsoft/security-utilities (MIT) reads them: a fixed signature at a fixed place says what they
  // are, bare. Common annotated security keys (84 base62 characters, `JQQJ9` at the 53rd: Cognitive Services, App Configuration, Event
  // Grid, DevOps…); Azure's 32-byte keys (44 base64 characters, the service's signature at the 34th: Relay +ARm, Event Hub +AEh, Service
  // Bus +ASb, IoT AIoT, Redis AzCa, Event Grid AZEG) and 64-byte ones (88, at the 77th: Storage +ASt, Cosmos DB ACDb, Batch +ABa,
  // ML +AMC, API Management APIM); Search (AzSe), Container Registry (+ACR) and Functions (AzFu) keys.
  {
    id: "azure-common-annotated-key",
    regex: `(?:^|[^A-Za-z0-9+/])([A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{24}(?:[A-Za-z0-9]{2}==)?)(?:[^A-Za-z0-9+/=]|$)`,
    keywords: ["jqqj9"],
    entropy: 3,
  },
  {
    id: "azure-identifiable-key",
    regex:
      `(?:^|[^A-Za-z0-9+/_-])([A-Za-z0-9+/]{33}(?:\\+ARm|\\+AEh|\\+ASb|AIoT|AzCa|AZEG)[A-P][A-Za-z0-9+/]{5}=|[A-Za-z0-9+/]{76}(?:\\+ASt|ACDb|\\+ABa|\\+AMC|APIM)[A-Za-z0-9+/]{5}[AQgw]==` +
      `|[A-Za-z0-9]{42}AzSe[A-D][A-Za-z0-9]{5}|[A-Za-z0-9+/]{42}\\+ACR[A-D][A-Za-z0-9+/]{5}|[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==)(?:[^A-Za-z0-9+/=_-]|$)`,
    keywords: ["+arm", "+aeh", "+asb", "aiot", "azca", "azeg", "+ast", "acdb", "+aba", "+amc", "apim", "azse", "+acr", "azfu"],
    entropy: 3,
  },
];
