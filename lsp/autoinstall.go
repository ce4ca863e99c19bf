package lsp

import (
	"context"
	"errors"
	"time"

	"github.com/lsp-hook/lsp-hook/config"
)

// autoInstallTimeout bounds one background install.
const autoInstallTimeout = 10 * time.Minute

// autoInstall installs s in the background (config `auto_install: true`)
// when it is distributed through go or npm and has not been tried yet. The
// check that found s missing does not wait: it reports s unavailable, and
// the first check after the install starts it (a missing entry is retried
// on acquire). The install runs under the manager's context, so Shutdown
// cancels it, and Shutdown waits for it.
func (m *Manager) autoInstall(s config.Server) {
	if s.Install.Method != config.InstallGo && s.Install.Method != config.InstallNPM {
		return
	}
	if _, tried := m.installs.LoadOrStore(s.Name, struct{}{}); tried {
		return
	}
	m.background(func() {
		ctx, cancel := context.WithTimeout(m.ctx, autoInstallTimeout)
		defer cancel()
		begin := time.Now()
		m.log.Info("installing server in the background (auto_install)", "server", s.Name, "method", s.Install.Method)
		exe, err := Install(ctx, s, InstallOptions{})
		var step *StepError
		switch {
		case errors.As(err, &step):
			m.log.Warn("auto_install failed", "server", s.Name, "step", step.Step, "err", step.Err, "output", step.Output)
		case err != nil:
			m.log.Warn("auto_install failed", "server", s.Name, "err", err)
		default:
			m.log.Info("installed server", "server", s.Name, "path", exe, "elapsed_ms", time.Since(begin).Milliseconds())
		}
	})
}
