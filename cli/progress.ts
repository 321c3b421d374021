/**
 * Progress of a long wait (an approval, payout legs on their way): on a terminal, one line redrawn
 * in place with a spinner; otherwise (CI logs, pipes) a plain line each time the state changes.
 * Always on stderr, so stdout stays the command's result.
 */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface Progress {
  /** Shows the current state; on a non-terminal, printed only when it changed. */
  update(state: string): void;
  /** Ends the progress display with a final line. */
  done(final: string): void;
}

export function progressOn(stream: NodeJS.WriteStream = process.stderr): Progress {
  let last = "";
  let frame = 0;
  if (!stream.isTTY) {
    return {
      update(state) {
        if (state !== last) stream.write(`${state}\n`);
        last = state;
      },
      done(final) {
        stream.write(`${final}\n`);
      },
    };
  }
  const timer = setInterval(() => draw(last), 120);
  timer.unref();
  const draw = (state: string) => {
    frame = (frame + 1) % FRAMES.length;
    stream.write(`\r\x1b[2K${FRAMES[frame]} ${state}`);
  };
  return {
    update(state) {
      last = state;
      draw(state);
    },
    done(final) {
      clearInterval(timer);
      stream.write(`\r\x1b[2K${final}\n`);
    },
  };
}
