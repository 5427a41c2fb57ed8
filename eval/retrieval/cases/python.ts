// Python / Django contexts and the lessons each should surface.
import { caseFactory, type CaseSpec } from "../spec.js";

const c = caseFactory("py", ["python", "django"]);

export const pythonCases: CaseSpec[] = [
  c(1, "Phase 3: Admin performance", "The orders page in the Django admin takes twelve seconds to load", ["orders/admin.py"], "debug toolbar counts 900 queries", ["py.n-plus-one"]),
  c(2, "Phase 2: Schema changes", "Add a required region field to the Event model", ["events/models.py", "events/migrations/0042_event_region.py"], "that table is huge in production", ["py.migration-default"]),
  c(3, "Phase 4: Tagging bug", "Tags from one API call show up on unrelated items created afterwards", ["catalog/services/tagging.py"], "def add_tags(item, tags=[]):", ["py.mutable-default"]),
  c(4, "Phase 3: Order confirmation emails", "The confirmation email task fails because it cannot find the order", ["orders/services.py", "orders/tasks.py"], "Order.DoesNotExist: Order matching query does not exist.", ["py.atomic-on-commit"]),
  c(5, "Phase 5: Deploy safety", "Retry-charge jobs vanish when the workers restart during a deploy", ["billing/tasks.py", "config/celery.py"], "", ["py.celery-acks-late"]),
  c(6, "Phase 3: Nightly report", "The nightly sales report picks up orders from the wrong day in summer", ["reports/nightly.py"], "RuntimeWarning: DateTimeField Order.created received a naive datetime while time zone support is active", ["py.timezone-aware"]),
  c(7, "Phase 2: Test suite", "Write pytest tests for the user signup service", ["accounts/tests/test_signup.py", "conftest.py"], "should I build the users by hand in each test?", ["py.factory-boy", "py.pytest-db-access"]),
  c(8, "Phase 6: Staging environment", "The staging site shows full error pages with stack traces to visitors", ["config/settings/staging.py", "config/settings/base.py"], "", ["py.settings-split"], { context_only: true }),
  c(9, "Phase 6: Staging environment", "Admin pages have no styling after the first staging deploy", ["Dockerfile", "config/settings/base.py"], "we switched DEBUG off there", ["py.debug-false-static"]),
  c(10, "Phase 4: Thumbnail pipeline", "Thumbnails for a large upload batch are slow even with a thread pool", ["media/thumbnails.py"], "", ["py.gil-threads"]),
  c(11, "Phase 3: Shipping integration", "All web workers hang whenever the carrier's rate service is down", ["shipping/carrier_client.py"], "gunicorn keeps reporting WORKER TIMEOUT", ["py.requests-timeout"]),
  c(12, "Phase 1: Dependency upgrade", "Bump django and celery to their latest releases", ["pyproject.toml", "poetry.lock"], "", ["py.poetry-lock"], { context_only: true }),
  c(13, "Phase 4: Security review", "Make sure people can only list invoices of their own organisation through the API", ["billing/api/views.py"], "", ["py.drf-permissions", "sec.idor"], { agent: "reviewer" }),
  c(14, "Phase 3: Cleanup", "Move the welcome email out of the hook that runs when a user is saved", ["accounts/signals.py", "accounts/models.py"], "", ["py.signals-avoid"]),
  c(15, "Phase 5: Sync jobs", "The price sync saves each product separately and takes almost half an hour", ["inventory/sync_prices.py"], "", ["py.bulk-update"]),
  c(16, "Phase 4: Counters", "Article view counts are lower than the access logs suggest", ["content/views.py", "content/models.py"], "article.views += 1; article.save()", ["py.f-expressions"]),
  c(17, "Phase 2: Async endpoints", "Convert the status endpoint to an async view", ["status/views.py"], "django.core.exceptions.SynchronousOnlyOperation: You cannot call this from an async context", ["py.async-views-orm"]),
  c(18, "Phase 3: SPA auth", "POST requests from the React frontend get 403 since we moved to session login", ["config/settings/base.py", "frontend/src/api/client.ts"], "maybe just csrf_exempt the api views?", ["py.csrf-api"]),
  c(19, "Phase 2: Reporting scripts", "The discount column in the quarterly report script never changes", ["scripts/quarterly_report.py"], "pandas prints something about a value being set on a copy of a slice", ["py.pandas-chained"], { stack: ["python", "pandas"] }),
  c(20, "Phase 2: Inventory service", "Database connections pile up under load in the inventory API", ["inventory_api/db.py", "inventory_api/routes.py"], "", ["py.fastapi-depends"], { stack: ["python", "fastapi"], context_only: true }),
];
