// A pasted error's stack frames cut down to the names of the project's own code, its exception lines first: the query's few informative words then survive the term cap.

/** A V8 or JVM frame: `at name (location)`, `at name(File.java:12)` or `at location`. */
const AT_FRAME_RE = /^\s*at\s+(?:async\s+)?(?:(.*?)\s*\(([^()]*)\)|(\S+))\s*$/;
/** A Python frame: `File "path", line 12, in name`. */
const PY_FRAME_RE = /^\s*File "([^"]*)", line \d+(?:, in (\S+))?\s*$/;
/** A Go frame's location line (`\t/app/main.go:42 +0x1d`) and a goroutine header. */
const GO_LOCATION_RE = /^\s+\S+\.go:\d+(?:\s+\+0x[0-9a-f]+)?\s*$|^goroutine \d+ \[[^\]]*\]:\s*$/;
/** Lines that only say a trace follows or was cut. */
const TRACE_FRAME_RE = /^\s*(?:Traceback \(most recent call last\):|\.\.\. \d+ more|\.\.\. \d+ lines matching cause stack trace)\s*$/;
/**
 * Frames in code the project did not write: installed packages, the runtime's own modules, the
 * JDK. Their paths and names are in every trace of the kind and in no lesson about this failure.
 */
const LIBRARY_LOCATION_RE =
  /node_modules|^node:|^internal\/|<anonymous>|\(native\)|^native |Native Method|Unknown Source|site-packages|dist-packages|\/lib\/python\d|<frozen |<string>|\/usr\/(?:local\/)?lib\//;
const LIBRARY_NAME_RE = /^(?:java|javax|jdk|sun|kotlin|scala|org\.junit|org\.springframework|org\.apache|Object\.<anonymous>$)/;
/** An exception line: `TypeError: …`, `psycopg2.errors.UniqueViolation: …`, `Error [ERR_X]: …`, `panic: …`. */
const EXCEPTION_LINE_RE = /^\s*(?:[\w$.]*(?:Error|Exception|Warning|Fault|Violation)(?:\s*\[[\w-]+\])?:|panic:|Caused by:)/;

/** A file's name without folders, extension or `:line:col`: `/app/src/OrderList.tsx:23:28` → `OrderList`. */
function fileStem(location: string): string {
  const file = location.replace(/(?::\d+)+$/, "").split(/[\\/]/).pop() ?? "";
  return file.replace(/\.[\w]+$/, "");
}

/** A frame's function name without the runtime's decorations (`[as x]`, `new `). */
function frameName(name: string): string {
  return name.replace(/\s*\[as [^\]]*\]/, "").replace(/^new\s+/, "").trim();
}

/**
 * The text with every stack frame replaced by the function and file names of the project's own
 * frames (library frames, and the source line Python prints under one, dropped), and its exception
 * lines moved first. Text without frames comes back unchanged.
 */
export function withoutStackNoise(text: string): string {
  if (!/\n/.test(text)) return text;
  const lines = text.split(/\r?\n/);
  const exceptions: string[] = [];
  const rest: string[] = [];
  let frames = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const at = AT_FRAME_RE.exec(line);
    const py = at ? null : PY_FRAME_RE.exec(line);
    if (at) {
      frames++;
      const name = frameName(at[1] ?? "");
      const location = at[2] ?? at[3] ?? "";
      if (LIBRARY_LOCATION_RE.test(location) || LIBRARY_NAME_RE.test(name)) continue;
      rest.push(`${name} ${fileStem(location)}`.trim());
    } else if (py) {
      frames++;
      const library = LIBRARY_LOCATION_RE.test(py[1]!);
      // The source line Python prints under a frame is indented deeper than the frame.
      const next = lines[i + 1];
      const indent = (s: string) => s.length - s.trimStart().length;
      const hasSource = next !== undefined && next.trim() !== "" && !PY_FRAME_RE.test(next) && indent(next) > indent(line);
      if (library) {
        if (hasSource) i++;
        continue;
      }
      rest.push(`${py[2] ?? ""} ${fileStem(py[1]!)}`.trim());
    } else if (GO_LOCATION_RE.test(line) || TRACE_FRAME_RE.test(line)) {
      frames++;
    } else if (EXCEPTION_LINE_RE.test(line)) {
      exceptions.push(line.trim());
    } else {
      rest.push(line);
    }
  }
  return frames === 0 ? text : [...exceptions, ...rest].join("\n");
}
