/**
 * The team's questions the tests of questions and segments ask in place of src/content/questions.json: a choice
 * question (team-size), a multiple one (tools) and a text one (role). A test about one of their rules (required, a
 * maximum length) changes that question where it uses it.
 */
import type { QuestionEntry } from "../../src/lib/waitlist/questions";

export const TEAM_SIZE: QuestionEntry = {
  id: "team-size",
  label: "How big is your team?",
  type: "choice",
  options: ["Just me", "2–10", "11–50", "50+"],
};
export const TOOLS: QuestionEntry = {
  id: "tools",
  label: "Which tools do you use?",
  type: "multiple",
  options: ["Notion", "Obsidian", "Roam"],
};
export const ROLE: QuestionEntry = { id: "role", label: "What is your role?", type: "text" };

/** The three as the segment tests choose among them: none required. */
export const SEGMENT_QUESTIONS: QuestionEntry[] = [TEAM_SIZE, TOOLS, ROLE];

/** The three as sign-up asks them: team-size required. */
export const SIGNUP_QUESTIONS: QuestionEntry[] = [{ ...TEAM_SIZE, required: true }, TOOLS, ROLE];
