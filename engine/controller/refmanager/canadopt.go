package refmanager

import (
	"fmt"
)

// canAdopt runs the CanAdopt check once per Manager: a live GET of the
// owner, which must still have the same UID and no deletionTimestamp. Later
// calls return the first answer without another GET.
//
// Error texts are upstream's:
//   - GET failed: "can't recheck DeletionTimestamp: <err>"
//   - UID differs: "can't recheck DeletionTimestamp: original <Kind> <ns>/<name> is gone: got uid <x>, wanted <y>"
//   - being deleted: "<ns>/<name> has just been deleted at <time>"
func (m *Manager) canAdopt() error {
	if m.canAdoptDone {
		return m.canAdoptErr
	}
	m.canAdoptDone = true
	m.canAdoptErr = m.recheckOwner()
	check := CanAdoptCheck{Owner: m.ownerName, Allowed: m.canAdoptErr == nil}
	if m.canAdoptErr != nil {
		check.Error = m.canAdoptErr.Error()
	}
	m.env.emit(check)
	return m.canAdoptErr
}

func (m *Manager) recheckOwner() error {
	ns, name := m.owner.GetNamespace(), m.owner.GetName()
	fresh, err := m.env.Client.Get(m.ownerRes, ns, name)
	if err == nil && fresh.GetUID() != m.owner.GetUID() {
		err = fmt.Errorf("original %s %s/%s is gone: got uid %s, wanted %s", m.ownerRes.Kind(), ns, name, fresh.GetUID(), m.owner.GetUID())
	}
	if err != nil {
		return fmt.Errorf("can't recheck DeletionTimestamp: %v", err)
	}
	if ts := fresh.GetDeletionTimestamp(); ts != nil {
		return fmt.Errorf("%s/%s has just been deleted at %v", fresh.GetNamespace(), fresh.GetName(), ts)
	}
	return nil
}
