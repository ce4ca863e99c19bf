package sidecar

import "github.com/lsp-hook/lsp-hook/config"

// configChanged reports whether the config the daemon would load now
// differs from the one it loaded (config.Stamp against ConfigStamp): the
// workspace's or the user's config file written, created or removed, an
// imported server definition changed, or the trust store's say on them.
// Its answers would then follow a config that is no longer the user's, so
// hello says so (wire.HelloResult.ConfigChanged) and the methods that
// answer by the config refuse (method.anyConfig): the client asks this
// daemon to shut down and starts one that loads the config as it is, with
// the sessions this one saves as it stops. Once changed, always changed
// (an edit undone still leaves servers started with settings read since).
// Until then each call reads the config files (a few small ones) and the
// trust store.
func (s *Server) configChanged() bool {
	if s.ConfigStamp == "" {
		return false
	}
	if s.configStale.Load() {
		return true
	}
	if config.Stamp(s.Engine.Root) == s.ConfigStamp {
		return false
	}
	if s.configStale.CompareAndSwap(false, true) {
		s.Log.Info("config changed since the daemon started; the next client replaces this daemon", "root", s.Engine.Root)
	}
	return true
}
