package sidecar

import "github.com/lsp-hook/lsp-hook/config"

// configChanged reports whether a file the config was loaded from
// (ConfigInputs) holds something else now: the workspace's or the user's
// config file written, created or removed, an imported server definition
// or the trust store changed. Its answers would then follow a config that
// is no longer the user's, so hello says so (wire.HelloResult.ConfigChanged)
// and the methods that answer by the config refuse (method.anyConfig): the
// client asks this daemon to shut down and starts one that loads the
// config as it is, with the sessions this one saves as it stops. Once
// changed, always changed (an edit undone still leaves servers started
// with settings read since). Each call reads the inputs (a few small
// files) until then.
func (s *Server) configChanged() bool {
	if len(s.ConfigInputs) == 0 {
		return false
	}
	if s.configStale.Load() {
		return true
	}
	if config.Fingerprint(s.ConfigInputs) == s.ConfigPrint {
		return false
	}
	if s.configStale.CompareAndSwap(false, true) {
		s.Log.Info("config changed since the daemon started; the next client replaces this daemon", "inputs", s.ConfigInputs)
	}
	return true
}
