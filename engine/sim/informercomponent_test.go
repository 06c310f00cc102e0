package sim

import (
	"testing"

	"github.com/rolloutlab/rolloutlab/engine/apiserver"
)

func TestInformerComponentNamesTheResource(t *testing.T) {
	for _, res := range []apiserver.Resource{apiserver.Pods, apiserver.ReplicaSets, apiserver.Deployments, apiserver.Nodes} {
		if got, want := informerComponent(res), "informer/"+string(res); got != want {
			t.Errorf("informerComponent(%s) = %q, want %q", res, got, want)
		}
	}
}
