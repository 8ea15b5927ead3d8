-- New, fixed, persistent and regressed findings per build of one app, across a fleet's
-- journals (docs/DEPLOYMENT.md): the classes `GET /v1/trends` gives for one daemon
-- (docs/trends.md), under the same column names and in the same order as
-- `auditctl trend --format json` gives a build: build, first_audited, screens, new, fixed,
-- persistent, regressed, first, not-audited. Every build has a row, in the order of its
-- first audit (first_audited: that audit's time); each screen's last audit in a build is
-- compared with its last audit in an earlier build; a finding absent from that audit but
-- present in an earlier one is regressed; not-audited lists the screens the build before
-- audited and this one did not. Replace {app} with the app's name as a quoted SQL string
-- ('com.example.shop'); ClickHouse 19.x and later can take it as a query parameter
-- ({app:String}, clickhouse-client --param_app=…). Written for ClickHouse 18.16 (Debian
-- 12): no window functions; arrays carry each app's builds, each screen's builds and each
-- finding's.
SELECT build, first_audited, screens, new, fixed, persistent, regressed, first, `not-audited`
FROM
(
    -- Every build of the app: its first audit, its screens, and the screens of the build
    -- before it that it did not audit.
    SELECT b.2 AS build, b.1.1 AS first_audited, b.1 AS first_key, length(b.3) AS screens,
        if(j = 1, emptyArrayString(), arrayFilter(s -> NOT has(b.3, s), bs[j - 1].3)) AS `not-audited`
    FROM
    (
        SELECT arraySort(groupArray((first, build, screens))) AS bs
        FROM
        (
            SELECT assumeNotNull(build) AS build, min((time, host, seq)) AS first, arraySort(groupUniqArray(assumeNotNull(screen))) AS screens
            FROM auditd.journal WHERE type = 'audit' AND app = {app} AND isNotNull(build)
            GROUP BY build
        )
    )
    ARRAY JOIN bs AS b, arrayEnumerate(bs) AS j
)
ANY LEFT JOIN
(
    SELECT build,
        countIf(class = 'new') AS new, countIf(class = 'fixed') AS fixed, countIf(class = 'persistent') AS persistent,
        countIf(class = 'regressed') AS regressed, countIf(class = 'first') AS first
    FROM
    (
        SELECT screen, fingerprint, severity, bs, ps, j,
            bs[j].2 AS build,
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
    GROUP BY build
) USING (build)
ORDER BY first_key
