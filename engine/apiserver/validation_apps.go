package apiserver

import (
	"strconv"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validation of apps/v1 Deployments and ReplicaSets. Error order, field
// paths, bad values and wording follow the v1.36.3 API server, which
// validates the internal (unversioned) types; where the bad value is a whole
// struct, a mirror of the internal type is passed so that it prints the same.

var specPath = field.NewPath("spec")

func validateDeploymentCreate(d *appsv1.Deployment) field.ErrorList {
	errs := validateMeta(&d.ObjectMeta, true, dnsSubdomainName, metaPath)
	return append(errs, validateDeploymentSpec(&d.Spec, specPath)...)
}

func validateDeploymentUpdate(d, old *appsv1.Deployment) field.ErrorList {
	errs := validateMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, metaPath)
	errs = append(errs, validateDeploymentSpec(&d.Spec, specPath)...)
	return append(errs, apivalidation.ValidateImmutableField(d.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
}

func validateReplicaSetCreate(rs *appsv1.ReplicaSet) field.ErrorList {
	errs := validateMeta(&rs.ObjectMeta, true, dnsSubdomainName, metaPath)
	return append(errs, validateReplicaSetSpec(&rs.Spec, specPath)...)
}

func validateReplicaSetUpdate(rs, old *appsv1.ReplicaSet) field.ErrorList {
	errs := validateMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, metaPath)
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, specPath)...)
	return append(errs, apivalidation.ValidateImmutableField(rs.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
}

func nonNegative(v int64, p *field.Path) field.ErrorList {
	return apivalidation.ValidateNonnegativeField(v, p)
}

func validateDeploymentSpec(spec *appsv1.DeploymentSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, nonNegative(int64(deref(spec.Replicas)), p.Child("replicas"))...)
	errs = append(errs, validateSelectorAndTemplate(spec.Selector, &spec.Template, p)...)
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, p.Child("strategy"))...)
	errs = append(errs, nonNegative(int64(spec.MinReadySeconds), p.Child("minReadySeconds"))...)
	if spec.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*spec.RevisionHistoryLimit), p.Child("revisionHistoryLimit"))...)
	}
	if spec.ProgressDeadlineSeconds != nil {
		errs = append(errs, nonNegative(int64(*spec.ProgressDeadlineSeconds), p.Child("progressDeadlineSeconds"))...)
		if *spec.ProgressDeadlineSeconds <= spec.MinReadySeconds {
			errs = append(errs, field.Invalid(p.Child("progressDeadlineSeconds"), *spec.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func validateReplicaSetSpec(spec *appsv1.ReplicaSetSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, nonNegative(int64(deref(spec.Replicas)), p.Child("replicas"))...)
	errs = append(errs, nonNegative(int64(spec.MinReadySeconds), p.Child("minReadySeconds"))...)
	return append(errs, validateSelectorAndTemplate(spec.Selector, &spec.Template, p)...)
}

// validateSelectorAndTemplate checks the selector (required, well-formed,
// non-empty) and the pod template against it. A ReplicaSet's empty selector
// is reported with the Deployment wording, as upstream does.
func validateSelectorAndTemplate(sel *metav1.LabelSelector, tmpl *corev1.PodTemplateSpec, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	sp := p.Child("selector")
	if sel == nil {
		errs = append(errs, field.Required(sp, ""))
	} else {
		errs = append(errs, metav1validation.ValidateLabelSelector(sel, metav1validation.LabelSelectorValidationOptions{}, sp)...)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, field.Invalid(sp, sel, "empty selector is invalid for deployment"))
		}
	}
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return append(errs, field.Invalid(sp, sel, "invalid label selector"))
	}
	return append(errs, validateTemplateForReplicaSet(tmpl, selector, p.Child("template"))...)
}

func validateTemplateForReplicaSet(t *corev1.PodTemplateSpec, selector labels.Selector, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if !selector.Empty() && !selector.Matches(labels.Set(t.Labels)) {
		errs = append(errs, field.Invalid(p.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, metav1validation.ValidateLabels(t.Labels, p.Child("labels"))...)
	errs = append(errs, apivalidation.ValidateAnnotations(t.Annotations, p.Child("annotations"))...)
	errs = append(errs, validatePodSpec(&t.Spec, p.Child("spec"))...)
	if t.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		errs = append(errs, field.NotSupported(p.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, []string{string(corev1.RestartPolicyAlways)}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, field.Invalid(p.Child("spec", "activeDeadlineSeconds"), *t.Spec.ActiveDeadlineSeconds, "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// internalStrategy mirrors the internal apps.DeploymentStrategy (no JSON
// tags), which is what an unsupported strategy type prints as its bad value:
// {"Type":"BlueGreen","RollingUpdate":null}.
type internalStrategy struct {
	Type          string
	RollingUpdate *internalRollingUpdate
}

type internalRollingUpdate struct {
	MaxUnavailable intstr.IntOrString
	MaxSurge       intstr.IntOrString
}

func validateDeploymentStrategy(st *appsv1.DeploymentStrategy, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch st.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if st.RollingUpdate != nil {
			errs = append(errs, field.Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"))
		}
	case appsv1.RollingUpdateDeploymentStrategyType:
		if st.RollingUpdate == nil {
			errs = append(errs, field.Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil"))
		} else {
			errs = append(errs, validateRollingUpdate(st.RollingUpdate, p.Child("rollingUpdate"))...)
		}
	default:
		bad := internalStrategy{Type: string(st.Type)}
		if ru := st.RollingUpdate; ru != nil {
			bad.RollingUpdate = &internalRollingUpdate{MaxUnavailable: derefIntStr(ru.MaxUnavailable), MaxSurge: derefIntStr(ru.MaxSurge)}
		}
		errs = append(errs, field.NotSupported(p, bad, []string{string(appsv1.RecreateDeploymentStrategyType), string(appsv1.RollingUpdateDeploymentStrategyType)}))
	}
	return errs
}

// validateRollingUpdate checks maxUnavailable then maxSurge (format and
// sign), then that they are not both 0, then that maxUnavailable is at most
// 100%. An unset value counts as 0 (the internal type is not a pointer).
func validateRollingUpdate(ru *appsv1.RollingUpdateDeployment, p *field.Path) field.ErrorList {
	unavail, surge := derefIntStr(ru.MaxUnavailable), derefIntStr(ru.MaxSurge)
	up, sp := p.Child("maxUnavailable"), p.Child("maxSurge")
	var errs field.ErrorList
	errs = append(errs, validateIntOrPercent(unavail, up)...)
	errs = append(errs, validateIntOrPercent(surge, sp)...)
	if intOrPercentValue(unavail) == 0 && intOrPercentValue(surge) == 0 {
		errs = append(errs, field.Invalid(up, unavail, "may not be 0 when `maxSurge` is 0"))
	}
	if v, isPercent := percentValue(unavail); isPercent && v > 100 {
		errs = append(errs, field.Invalid(up, unavail, "must not be greater than 100%"))
	}
	return errs
}

func validateIntOrPercent(v intstr.IntOrString, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if v.Type == intstr.String {
		for _, msg := range utilvalidation.IsValidPercent(v.StrVal) {
			errs = append(errs, field.Invalid(p, v, msg))
		}
		return errs
	}
	return nonNegative(int64(v.IntValue()), p)
}

// percentValue returns the number of a well-formed percent string.
func percentValue(v intstr.IntOrString) (int, bool) {
	if v.Type != intstr.String || len(utilvalidation.IsValidPercent(v.StrVal)) != 0 {
		return 0, false
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	return n, true
}

// intOrPercentValue is the number used by the both-zero rule: the percent
// number, or the integer (a malformed string parses as an integer, else 0).
func intOrPercentValue(v intstr.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	return v.IntValue()
}

func derefIntStr(v *intstr.IntOrString) intstr.IntOrString {
	if v == nil {
		return intstr.IntOrString{}
	}
	return *v
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func validateReplicaSetStatus(st *appsv1.ReplicaSetStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, nonNegative(int64(st.Replicas), p.Child("replicas"))...)
	errs = append(errs, nonNegative(int64(st.FullyLabeledReplicas), p.Child("fullyLabeledReplicas"))...)
	errs = append(errs, nonNegative(int64(st.ReadyReplicas), p.Child("readyReplicas"))...)
	errs = append(errs, nonNegative(int64(st.AvailableReplicas), p.Child("availableReplicas"))...)
	errs = append(errs, nonNegative(st.ObservedGeneration, p.Child("observedGeneration"))...)
	if st.TerminatingReplicas != nil {
		errs = append(errs, nonNegative(int64(*st.TerminatingReplicas), p.Child("terminatingReplicas"))...)
	}
	const msg = "cannot be greater than status.replicas"
	if st.FullyLabeledReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("fullyLabeledReplicas"), st.FullyLabeledReplicas, msg))
	}
	if st.ReadyReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("readyReplicas"), st.ReadyReplicas, msg))
	}
	if st.AvailableReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), st.AvailableReplicas, msg))
	}
	if st.AvailableReplicas > st.ReadyReplicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), st.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}

func validateDeploymentStatus(st *appsv1.DeploymentStatus, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, nonNegative(st.ObservedGeneration, p.Child("observedGeneration"))...)
	errs = append(errs, nonNegative(int64(st.Replicas), p.Child("replicas"))...)
	errs = append(errs, nonNegative(int64(st.UpdatedReplicas), p.Child("updatedReplicas"))...)
	errs = append(errs, nonNegative(int64(st.ReadyReplicas), p.Child("readyReplicas"))...)
	errs = append(errs, nonNegative(int64(st.AvailableReplicas), p.Child("availableReplicas"))...)
	errs = append(errs, nonNegative(int64(st.UnavailableReplicas), p.Child("unavailableReplicas"))...)
	if st.TerminatingReplicas != nil {
		errs = append(errs, nonNegative(int64(*st.TerminatingReplicas), p.Child("terminatingReplicas"))...)
	}
	if st.CollisionCount != nil {
		errs = append(errs, nonNegative(int64(*st.CollisionCount), p.Child("collisionCount"))...)
	}
	const msg = "cannot be greater than status.replicas"
	if st.UpdatedReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("updatedReplicas"), st.UpdatedReplicas, msg))
	}
	if st.ReadyReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("readyReplicas"), st.ReadyReplicas, msg))
	}
	if st.AvailableReplicas > st.Replicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), st.AvailableReplicas, msg))
	}
	if st.AvailableReplicas > st.ReadyReplicas {
		errs = append(errs, field.Invalid(p.Child("availableReplicas"), st.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	return errs
}
