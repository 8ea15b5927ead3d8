-- New, fixed, persistent and regressed findings per build of one app, across a fleet's
-- journals (docs/DEPLOYMENT.md): the classes `GET /v1/trends` gives for one daemon
-- (docs/trends.md). Builds are ordered by their first audit's time; each screen's last
-- audit in a build is compared with its last audit in an earlier build; a finding absent
-- from that audit but present in an earlier one is regressed. Builds with no finding to
-- count (none present, none fixed) have no row. Replace {app} with the app's name as a
-- quoted SQL string ('com.example.shop'); ClickHouse 19.x and later can take it as a query
-- parameter ({app:String}, clickhouse-client --param_app=…). Written for ClickHouse 18.16
-- (Debian 12): no window functions; arrays carry each screen's builds and each finding's.
SELECT build, first,
    countIf(class = 'new') AS new, countIf(class = 'fixed') AS fixed, countIf(class = 'persistent') AS persistent,
    countIf(class = 'regressed') AS regressed, countIf(class = 'first') AS first_audit
FROM
(
    SELECT screen, fingerprint, severity, bs, ps, j,
        bs[j].2 AS build, bs[j].1 AS first,
        has(ps, bs[j]) AS present,
        multiIf(
            present AND j = 1, 'first',
            present AND has(ps, bs[j - 1]), 'persistent',
            present AND arrayExists(x -> x < bs[j - 1], ps), 'regressed',
            present, 'new',
            j > 1 AND has(ps, bs[j - 1]), 'fixed',
            '') AS class
    FROM
    (
    SELECT screen, fingerprint, severity, ps, bs
    FROM
    (
        SELECT screen, fingerprint, any(severity) AS severity, arraySort(groupUniqArray((first, build))) AS ps
        FROM
        (
            SELECT audit, screen, build, first
            FROM
            (
                SELECT assumeNotNull(screen) AS screen, assumeNotNull(build) AS build, argMax(audit, (time, host, seq)) AS audit
                FROM auditd.journal WHERE type = 'audit' AND app = {app} AND isNotNull(build)
                GROUP BY screen, build
            )
            ANY INNER JOIN
            (
                SELECT assumeNotNull(build) AS build, min((time, host, seq)) AS first
                FROM auditd.journal WHERE type = 'audit' AND app = {app} AND isNotNull(build)
                GROUP BY build
            ) USING (build)
        )
        ALL INNER JOIN
        (
            SELECT audit, assumeNotNull(fingerprint) AS fingerprint, assumeNotNull(severity) AS severity
            FROM auditd.journal WHERE type = 'finding' AND app = {app}
        ) USING (audit)
        GROUP BY screen, fingerprint
    )
    ANY INNER JOIN
    (
        SELECT screen, arraySort(groupArray((first, build))) AS bs
        FROM
        (
            SELECT assumeNotNull(screen) AS screen, assumeNotNull(build) AS build
            FROM auditd.journal WHERE type = 'audit' AND app = {app} AND isNotNull(build)
            GROUP BY screen, build
        )
        ANY INNER JOIN
        (
            SELECT assumeNotNull(build) AS build, min((time, host, seq)) AS first
            FROM auditd.journal WHERE type = 'audit' AND app = {app} AND isNotNull(build)
            GROUP BY build
        ) USING (build)
        GROUP BY screen
    ) USING (screen)
    )
    ARRAY JOIN arrayEnumerate(bs) AS j
)
WHERE class != ''
GROUP BY build, first
ORDER BY first
