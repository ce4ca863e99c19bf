package wire

// The session methods (DESIGN.md "Sessions"): an agent session's start,
// end of turn and end, as the hooks of each agent report them. A session
// is named by the agent's own ID (Claude Code's session_id, Gemini CLI's
// session_id, Codex's session_id, Copilot's sessionId, Cursor's
// conversation_id); notify_change's Session ties a change to it.
const (
	// MethodSessionStart: SessionParams → SessionStartResult. The daemon
	// records the session and answers at once; then it starts, in the
	// background, the language servers the workspace needs (its log and
	// status say which).
	MethodSessionStart = "session_start"
	// MethodSessionStop: SessionStopParams → SessionStopResult, the Stop
	// gate: the errors the session introduced that remain, and whether the
	// end of the turn is to be blocked.
	MethodSessionStop = "session_stop"
	// MethodSessionEnd: SessionParams → struct{}. The daemon forgets the
	// session.
	MethodSessionEnd = "session_end"
)

// SessionParams names a session: the agent's session ID and the agent
// ("claude", "gemini", …; for the log and status).
type SessionParams struct {
	Session string `json:"session"`
	Agent   string `json:"agent,omitempty"`
}

// SessionStartResult is session_start's answer: empty, given before the
// servers are started (see MethodSessionStart).
type SessionStartResult struct{}

// SessionStopParams is an end of turn. Active is the agent's own word that
// this end of turn follows one a Stop hook blocked (Claude Code's
// stop_hook_active): the gate then never blocks. BudgetMS bounds the check
// in milliseconds (0: the daemon's cold budget).
type SessionStopParams struct {
	SessionParams
	Active   bool `json:"active,omitempty"`
	BudgetMS int  `json:"budget_ms,omitempty"`
}

// Stop gate decisions (SessionStopResult.Decision).
const (
	StopAllow = "allow" // end the turn; nothing to say
	StopWarn  = "warn"  // end the turn; Lint reports what remains
	StopBlock = "block" // keep the turn going: Lint is the reason
)

// SessionStopResult is the Stop gate's answer: Decision (StopAllow,
// StopWarn or StopBlock), Lint the lint block of the errors the session
// introduced that remain (with notes for what could not be checked),
// Errors their count, Files how many files the session touched.
type SessionStopResult struct {
	Decision string `json:"decision"`
	Lint     string `json:"lint,omitempty"`
	Errors   int    `json:"errors"`
	Files    int    `json:"files"`
}
