"""Operator recovery of held jobs: retry, discard and resolving an uncertain send, each one
audited SQL function (sql/recovery_*.sql) behind the same authorization."""
