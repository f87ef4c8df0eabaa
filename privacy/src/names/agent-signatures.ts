import type { Candidate } from '../recognizer.js';

// Coding agents sign the commits they write with a trailer: Claude Code "Co-Authored-By: Claude
// <noreply@anthropic.com>", Cursor "Co-authored-by: Cursor <cursoragent@cursor.com>", Codex "Co-authored-by: Codex
// <codex@openai.com>", GitHub's "Co-authored-by: Copilot <…+Copilot@users.noreply.github.com>". "Claude" is a given
// name too, and the others read as one, so every `git log` an agent ran through the gateway lost its agent's name to
// a placeholder. A name signs as an agent only with that agent's own vendor's mailbox right after it: "Claude
// <claude@example.fr>" and "Claude Debussy" stay people.

/** Each agent's names as its trailers write them, and the mailbox (local part and domain) that vouches for them. */
const AGENTS: readonly { readonly names: readonly string[]; readonly local: RegExp; readonly domain: RegExp }[] = [
  { names: ['Claude', 'Claude Code'], local: /^noreply$/, domain: /^anthropic\.com$/ },
  { names: ['Cursor', 'Cursor Agent'], local: /^cursoragent$/, domain: /^cursor\.(?:com|sh)$/ },
  { names: ['Codex', 'OpenAI Codex'], local: /^(?:codex|noreply)$/, domain: /^openai\.com$/ },
  // GitHub's no-reply address carries the account's name: "175728472+Copilot@users.noreply.github.com".
  { names: ['Copilot', 'GitHub Copilot'], local: /^(?:\d+\+)?copilot$/, domain: /^(?:users\.noreply\.)?github\.com$/ },
];

/** The mailbox in angle brackets right after a name, on the same line. */
const MAILBOX_AFTER_RE = /^[ \t]*<([^\s<>@]+)@([^\s<>@]+)>/;

/** Whether text[start, end) is a coding agent's name signing with its vendor's mailbox. */
export function signsAsCodingAgent(text: string, start: number, end: number): boolean {
  const name = text.slice(start, end);
  const agent = AGENTS.find((a) => a.names.includes(name));
  if (agent === undefined) return false;
  const m = MAILBOX_AFTER_RE.exec(text.slice(end, end + 96));
  // The agent's own mailbox, not a person's at the same firm ("Claude <claude.dubois@anthropic.com>").
  return m !== null && agent.local.test((m[1] as string).toLowerCase()) && agent.domain.test((m[2] as string).toLowerCase());
}

/** `candidates` without the people that are coding agents signing a commit. */
export function withoutAgentSignatures(text: string, candidates: Candidate[]): Candidate[] {
  return candidates.some((c) => c.type === 'PERSON' && signsAsCodingAgent(text, c.start, c.end))
    ? candidates.filter((c) => c.type !== 'PERSON' || !signsAsCodingAgent(text, c.start, c.end))
    : candidates;
}
