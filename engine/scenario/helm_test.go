package scenario

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
)

// TestHelmManifests parses testdata/helm: 20 manifests written the way
// popular Helm charts render them (# Source: comments, empty documents,
// block scalars, quoted values, flow collections, a CRLF file). Each loads;
// every Deployment is an object and every other document an "ignored"
// notice.
func TestHelmManifests(t *testing.T) {
	files, _ := filepath.Glob("testdata/helm/*.yaml")
	if len(files) < 20 {
		t.Fatalf("%d helm manifests, want at least 20", len(files))
	}
	kindLine := regexp.MustCompile(`(?m)^kind: (\S+)\r?$`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(filepath.Base(f), data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		deployments, others := 0, 0
		for _, m := range kindLine.FindAllStringSubmatch(string(data), -1) {
			if m[1] == "Deployment" {
				deployments++
			} else {
				others++
			}
		}
		ignored := 0
		for _, n := range s.Notices {
			if n.Code == NoticeIgnored {
				ignored++
			}
		}
		if len(s.Objects) != deployments || ignored != others {
			t.Errorf("%s: %d objects and %d ignored, want %d Deployments and %d others", f, len(s.Objects), ignored, deployments, others)
		}
		for _, o := range s.Objects {
			d := o.Obj.(*appsv1.Deployment)
			if d.Namespace == "" || len(d.Spec.Template.Spec.Containers) == 0 || d.Spec.Template.Spec.Containers[0].Image == "" {
				t.Errorf("%s: deployment %s decoded incompletely", f, d.Name)
			}
		}
	}
}

// Values as the charts write them decode to the strings kubectl would send.
func TestHelmManifestValues(t *testing.T) {
	dep := func(file, name string) *appsv1.Deployment {
		t.Helper()
		data, err := os.ReadFile("testdata/helm/" + file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range s.Objects {
			if d := o.Obj.(*appsv1.Deployment); d.Name == name {
				return d
			}
		}
		t.Fatalf("%s: no deployment %s", file, name)
		return nil
	}
	// A folded block scalar with strip chomping.
	if got := dep("podinfo.yaml", "podinfo").Spec.Template.Annotations["description"]; got != "podinfo is a tiny web application made with Go that showcases best practices of running microservices in Kubernetes." {
		t.Errorf("podinfo description %q", got)
	}
	// A single-quoted value with double quotes inside.
	if got := dep("podinfo.yaml", "podinfo").Spec.Template.Spec.Containers[0].Env[1].Value; got != `Greetings from "podinfo" in the demo namespace` {
		t.Errorf("podinfo env %q", got)
	}
	// A literal block scalar in a list, keeping its comment-like lines.
	args := dep("bitnami-nginx.yaml", "web-nginx").Spec.Template.Spec.InitContainers[0].Args
	if len(args) != 2 || !strings.HasPrefix(args[1], "#!/bin/bash\n. /opt/bitnami/scripts/libfs.sh\n# We copy") || !strings.HasSuffix(args[1], "  cp -r /opt/bitnami/nginx/logs /emptydir/app-logs-dir\nfi\n") {
		t.Errorf("nginx init args %q", args)
	}
	// JSON-style flow mappings in a block list.
	ports := dep("coredns.yaml", "coredns").Spec.Template.Spec.Containers[0].Ports
	if len(ports) != 3 || ports[0].ContainerPort != 53 || ports[0].Protocol != "UDP" || ports[2].Name != "tcp-9153" {
		t.Errorf("coredns ports %+v", ports)
	}
	// CRLF line ends leave no carriage return in values.
	m := dep("minio.yaml", "minio")
	if got := m.Spec.Template.Spec.Containers[0].Command[2]; got != "/usr/bin/docker-entrypoint.sh minio server /export -S /etc/minio/certs/ --address :9000 --console-address :9001" {
		t.Errorf("minio command %q", got)
	}
	if got := m.Spec.Strategy.RollingUpdate.MaxSurge.String(); got != "100%" {
		t.Errorf("minio maxSurge %q", got)
	}
	// "key : value" with a space before the colon, and a quoted namespace.
	if got := dep("oauth2-proxy.yaml", "oauth2-proxy").Spec.Template.Spec.AutomountServiceAccountToken; got == nil || !*got {
		t.Errorf("oauth2-proxy automountServiceAccountToken %v", got)
	}
	if got := dep("bitnami-nginx.yaml", "web-nginx").Namespace; got != "web" {
		t.Errorf("nginx namespace %q", got)
	}
}
