// Package fifotest makes named pipes for the tests of every package that
// must never block on one (loader, loader/safefs, policies, the CLI).
package fifotest
