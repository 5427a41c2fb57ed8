// Docker / Kubernetes contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("k8s", ["docker", "kubernetes"]);

export const containerCases: CaseSpec[] = [
  c(1, "Phase 6: Production readiness", "Requests fail for a minute after each deploy while the new pods warm up", ["k8s/api/deployment.yaml"], "", ["k8s.readiness"]),
  c(2, "Phase 6: Incident follow-up", "All API pods restarted together during a short database outage", ["k8s/api/deployment.yaml", "src/health.ts"], "CrashLoopBackOff on every replica for a few minutes", ["k8s.liveness-db"]),
  c(3, "Phase 5: Capacity", "API latency spikes during bursts although the nodes have spare CPU", ["helm/app/values.yaml"], "", ["k8s.resource-limits"]),
  c(4, "Phase 5: Memory", "The Node API pods keep restarting with exit code 137", ["k8s/api/deployment.yaml", "Dockerfile"], "kubectl describe says OOMKilled", ["k8s.oomkilled-node"]),
  c(5, "Phase 1: Build speed", "Image builds take nine minutes on every single commit", ["Dockerfile"], "", ["dk.layer-cache"], { stack: ["docker"], context_only: true }),
  c(6, "Phase 4: Security hardening", "The platform team's admission controller rejects our pods in production", ["Dockerfile", "k8s/api/deployment.yaml"], "the webhook says the container must not run as root", ["dk.non-root"]),
  c(7, "Phase 4: Security hardening", "Someone found our .env file inside the published image", ["Dockerfile"], "", ["dk.dockerignore"]),
  c(8, "Phase 6: Deploy speed", "Every deploy waits thirty seconds per pod before the old one stops", ["Dockerfile"], "CMD is sh -c 'node dist/server.js'", ["dk.pid1-signals"]),
  c(9, "Phase 2: CI images", "Images built on my laptop crash immediately on the cluster", ["Dockerfile", ".github/workflows/build.yml"], "standard_init_linux.go:228: exec user process caused: exec format error", ["dk.multi-arch"]),
  c(10, "Phase 2: Local dev", "The API container starts before Postgres is ready in docker compose", ["docker-compose.yml"], "", ["dk.compose-healthcheck"]),
  c(11, "Phase 6: Node maintenance", "Draining a node took every API replica offline at once", ["k8s/api/deployment.yaml"], "", ["k8s.pdb"]),
  c(12, "Phase 3: Config changes", "Editing the feature-flag ConfigMap has no effect on running pods", ["helm/app/templates/configmap.yaml", "helm/app/templates/deployment.yaml"], "", ["k8s.configmap-reload"]),
  c(13, "Phase 3: Secrets", "Add the Stripe API key to the cluster for the payments service", ["k8s/payments/secret.yaml"], "", ["k8s.secrets-sealed"]),
  c(14, "Phase 5: Autoscaling", "Queue workers never scale up even with a backlog of fifty thousand messages", ["k8s/workers/hpa.yaml"], "", ["k8s.hpa-metrics"]),
  c(15, "Phase 3: Large exports", "Report downloads always fail after exactly one minute", ["k8s/api/ingress.yaml"], "", ["k8s.ingress-timeouts"]),
  c(16, "Phase 2: New namespace", "Pods in the new staging namespace never start", ["k8s/staging/deployment.yaml"], "Back-off pulling image \"registry.internal/api:1.4\"; ErrImagePull", ["k8s.image-pull-backoff"]),
  c(17, "Phase 6: Ops scripts", "Write a script that restarts the workers in staging", ["scripts/restart-workers.sh"], "", ["k8s.kubectl-context"]),
];
