// What the lab must know of one agent to drive it: where its binary is, how to seed its home so
// no first-run screen appears, how its TUI reads, and how its model spells each tool call.
import type { FakeModel, Wire } from '../fake-model';
import type { LabHome } from '../home';
import type { ToolCall } from '../script';

export interface AgentLab {
  /** Lookout's provider id. */
  id: string;
  /** The npm package the version is read from. */
  npmPackage: string;
  wire: Wire;
  /** The binary inside the installed packages under `modules`, or null when it is not there. */
  binary(modules: string): string | null;
  /** The installed version under `modules`. */
  version(modules: string): string | null;
  /** Writes the agent's own configuration into the home and returns its environment. */
  prepare(home: LabHome, model: FakeModel): Record<string, string>;
  /** Arguments after the binary. */
  args: readonly string[];
  /**
   * For an agent the lab can drive only headless (one run per prompt, no TUI): the arguments after
   * the binary that run one prompt. The scenario then starts nothing until its prompt.
   */
  headless?: (prompt: string) => string[];
  /** The screen shows the prompt box, ready for text. */
  ready(screen: string): boolean;
  /** A start-up dialog that is sure to come (and must be dismissed) before the prompt is ready, given hooks or not. */
  expectedDialog?: (hooks: boolean) => string | null;
  /** Keys that dismiss a start-up dialog on this screen, or null when there is none. */
  dismiss(screen: string): string[] | null;
  /** The screen shows a permission prompt. */
  asksPermission(screen: string): boolean;
  /** Keys that approve the shown permission prompt once. */
  approveKeys: readonly string[];
  /** The tool calls the scenarios use, in this agent's own words. */
  tools: {
    /** A shell command that needs the user's approval. */
    guardedShell(command: string): ToolCall;
    /** A file edit (a new file) that needs the user's approval, or null where the lab does not drive one. */
    fileEdit?(path: string, content: string): ToolCall;
    /** The agent's question tool, or null where it has none the lab can reach. */
    question(question: string, options: readonly string[]): ToolCall | null;
    /** Starts a subagent, or null where the agent has none. */
    subagent(description: string, prompt: string): ToolCall | null;
  };
  /** The folders and files under the home that Lookout reads for this agent (a recording keeps these). */
  recorded: readonly string[];
  /** Pid files of background processes the agent leaves running (ended by pid after a scenario). */
  daemonPids(home: LabHome): number[];
}
