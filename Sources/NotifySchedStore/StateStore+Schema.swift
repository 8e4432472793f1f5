import Foundation
import GRDB
import NotifySchedCore

extension StateStore {
    /// The schema's history. A migration, once released, never changes: a new need is a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-ledger-and-source-state") { database in
            try database.execute(
                sql: """
                    CREATE TABLE ledger (
                        occurrence_id TEXT PRIMARY KEY NOT NULL,
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        occurrence_us INTEGER NOT NULL,
                        popup_id INTEGER,
                        outcome TEXT NOT NULL,
                        recorded_us INTEGER NOT NULL
                    );
                    CREATE INDEX ledger_by_entry ON ledger (source, entry_id, occurrence_us);
                    CREATE TABLE source_state (
                        source TEXT PRIMARY KEY NOT NULL,
                        has_run INTEGER NOT NULL DEFAULT 0,
                        last_checked_us INTEGER,
                        run_counter INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE TABLE queue_index (
                        source TEXT NOT NULL,
                        queue TEXT NOT NULL,
                        next_index INTEGER NOT NULL,
                        PRIMARY KEY (source, queue)
                    );
                    CREATE TABLE event_progress (
                        source TEXT NOT NULL,
                        event_key TEXT NOT NULL,
                        pattern_text TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (source, event_key)
                    );
                    CREATE TABLE meta_rotation (
                        source TEXT NOT NULL,
                        event_names TEXT NOT NULL,
                        last_uuid TEXT NOT NULL,
                        PRIMARY KEY (source, event_names)
                    );
                    """)
        }
        // What `handle ID` and a restarted daemon need of a delivered occurrence, and what the
        // user's answers changed (the handling state of DESIGN §7).
        migrator.registerMigration("2-delivered-occurrences-and-handling-state") { database in
            try database.execute(
                sql: """
                    CREATE TABLE delivered (
                        occurrence_id TEXT PRIMARY KEY NOT NULL REFERENCES ledger (occurrence_id) ON DELETE CASCADE,
                        dialect TEXT NOT NULL,
                        title TEXT NOT NULL,
                        body TEXT NOT NULL,
                        icon TEXT,
                        urgency TEXT NOT NULL,
                        category TEXT,
                        action_label TEXT,
                        action_url TEXT,
                        news_ok_label TEXT,
                        news_cancel_label TEXT,
                        news_repeats INTEGER,
                        news_always INTEGER,
                        news_hash TEXT,
                        news_is_classic INTEGER,
                        delivered_us INTEGER NOT NULL,
                        server TEXT
                    );
                    CREATE INDEX delivered_by_time ON delivered (delivered_us);
                    CREATE TABLE handling_mark (
                        position INTEGER PRIMARY KEY AUTOINCREMENT,
                        source TEXT NOT NULL,
                        list TEXT NOT NULL CHECK (list IN ('viewed', 'ignored')),
                        entry_id TEXT NOT NULL
                    );
                    CREATE INDEX handling_mark_by_source ON handling_mark (source, position);
                    ALTER TABLE source_state ADD COLUMN last_reminded_us INTEGER;
                    CREATE TABLE reminder (
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        reminded_us INTEGER NOT NULL,
                        PRIMARY KEY (source, entry_id)
                    );
                    CREATE TABLE news_shown (
                        source TEXT NOT NULL,
                        content_hash TEXT NOT NULL,
                        PRIMARY KEY (source, content_hash)
                    );
                    """)
        }
        // The health of each source (issue 6): the daemon's polling survives restarts.
        migrator.registerMigration("3-source-health") { database in
            try database.execute(
                sql: """
                    ALTER TABLE source_state ADD COLUMN health_checked_us INTEGER;
                    ALTER TABLE source_state ADD COLUMN health_succeeded_us INTEGER;
                    ALTER TABLE source_state ADD COLUMN health_error TEXT;
                    ALTER TABLE source_state ADD COLUMN health_failures INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE source_state ADD COLUMN health_next_check_us INTEGER;
                    ALTER TABLE source_state ADD COLUMN health_etag TEXT;
                    ALTER TABLE source_state ADD COLUMN health_last_modified TEXT;
                    ALTER TABLE source_state ADD COLUMN health_feed_version INTEGER;
                    ALTER TABLE source_state ADD COLUMN health_copy_taken_us INTEGER;
                    """)
        }
        // Popups that session events, posted events and iNotify checks chose, until they are
        // shown: they wait for a queue's timeout, quiet hours or a notification server.
        migrator.registerMigration("4-waiting-popups") { database in
            try database.execute(
                sql: """
                    CREATE TABLE waiting_popup (
                        occurrence_id TEXT PRIMARY KEY NOT NULL,
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        occurrence_us INTEGER NOT NULL
                    );
                    """)
        }
        // The instant the daemon began following each recurring entry that has no ledger record
        // yet: its occurrences after it are owed, even across a restart (`OccurrencePlan`).
        migrator.registerMigration("5-followed-entries") { database in
            try database.execute(
                sql: """
                    CREATE TABLE followed_entry (
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        since_us INTEGER NOT NULL,
                        PRIMARY KEY (source, entry_id)
                    );
                    """)
        }
        // The prompts `handle` shows, until answered: a restarted daemon takes them over.
        migrator.registerMigration("6-prompts") { database in
            try database.execute(
                sql: """
                    CREATE TABLE prompt (
                        occurrence_id TEXT PRIMARY KEY NOT NULL REFERENCES ledger (occurrence_id) ON DELETE CASCADE,
                        popup_id INTEGER NOT NULL,
                        server TEXT NOT NULL
                    );
                    """)
        }
        // `handle ENTRY` looks entries up by id across sources; a prompt is taken over only
        // while recent, as popups are.
        migrator.registerMigration("7-entry-lookup-and-prompt-time") { database in
            try database.execute(
                sql: """
                    CREATE INDEX ledger_by_entry_id ON ledger (entry_id, source, occurrence_us);
                    ALTER TABLE prompt ADD COLUMN shown_us INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // iSmartNews meta items' own rules (seed semantics §2.8): when each last showed and how
        // often in each of its ranges, how and in which version each was last closed, and the
        // source's install and upgrade. A source followed before has been installed since its
        // first delivery.
        migrator.registerMigration("8-meta-item-rules") { database in
            try database.execute(
                sql: """
                    ALTER TABLE source_state ADD COLUMN first_start_us INTEGER;
                    ALTER TABLE source_state ADD COLUMN application_version TEXT;
                    ALTER TABLE source_state ADD COLUMN upgraded INTEGER NOT NULL DEFAULT 0;
                    UPDATE source_state SET first_start_us =
                        (SELECT MIN(recorded_us) FROM ledger WHERE ledger.source = source_state.source);
                    CREATE TABLE meta_shown (
                        source TEXT NOT NULL,
                        uuid TEXT NOT NULL,
                        shown_us INTEGER NOT NULL,
                        PRIMARY KEY (source, uuid)
                    );
                    CREATE TABLE range_shown (
                        source TEXT NOT NULL,
                        range_key TEXT NOT NULL,
                        period INTEGER,
                        shown INTEGER NOT NULL,
                        PRIMARY KEY (source, range_key)
                    );
                    CREATE TABLE meta_closing (
                        source TEXT NOT NULL,
                        uuid TEXT NOT NULL,
                        closing TEXT NOT NULL,
                        closed_us INTEGER NOT NULL,
                        application_version TEXT,
                        PRIMARY KEY (source, uuid, closing)
                    );
                    """)
        }
        // What a popup of a native entry may carry besides its text: its timeout, sound, picture
        // and whether its body is markup, so that a restarted daemon shows it again the same.
        migrator.registerMigration("9-popup-timeout-sound-image-markup") { database in
            try database.execute(
                sql: """
                    ALTER TABLE delivered ADD COLUMN timeout_us INTEGER;
                    ALTER TABLE delivered ADD COLUMN sound TEXT;
                    ALTER TABLE delivered ADD COLUMN image TEXT;
                    ALTER TABLE delivered ADD COLUMN markup INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        // A snooze brings its entry back at a time of its own rather than after the remind period.
        migrator.registerMigration("10-snooze") { database in
            try database.execute(sql: "ALTER TABLE reminder ADD COLUMN until_us INTEGER")
        }
        // The check period a portal asks for with `Cache-Control: max-age` outlives a restart.
        migrator.registerMigration("11-portal-period") { database in
            try database.execute(sql: "ALTER TABLE source_state ADD COLUMN health_portal_period_us INTEGER")
        }
        // The entries followed together, in one row with their positions
        // (`FollowedEntry.encoded(_:)`), rather than a row per entry: a restart finds each where
        // it was instead of looking 10^6 ids up. Rows of the earlier table keep their instants,
        // without a position.
        migrator.registerMigration("12-followed-batches") { database in
            try database.execute(
                sql: """
                    CREATE TABLE followed_batch (
                        source TEXT NOT NULL,
                        since_us INTEGER NOT NULL,
                        entries BLOB NOT NULL
                    );
                    CREATE INDEX followed_batch_by_source ON followed_batch (source);
                    """)
            let rows = try Row.fetchCursor(
                database, sql: "SELECT source, since_us, entry_id FROM followed_entry ORDER BY source, since_us")
            var batch: (source: String, since: Int64, entries: [FollowedEntry])?
            func insert() throws {
                guard let batch else { return }
                try database.execute(
                    sql: "INSERT INTO followed_batch (source, since_us, entries) VALUES (?, ?, ?)",
                    arguments: [batch.source, batch.since, Data(FollowedEntry.encoded(batch.entries))])
            }
            while let row = try rows.next() {
                let (source, since, entry): (String, Int64, String) = (row[0], row[1], row[2])
                if batch?.source != source || batch?.since != since {
                    try insert()
                    batch = (source, since, [])
                }
                batch?.entries.append(FollowedEntry(id: entry, position: nil))
            }
            try insert()
            try database.execute(sql: "DROP TABLE followed_entry")
        }
        // A failed check's error code beside its message, for `status --json` and programs;
        // a failure stored before has none.
        migrator.registerMigration("13-health-error-code") { database in
            try database.execute(sql: "ALTER TABLE source_state ADD COLUMN health_error_code TEXT")
        }
        // Caps (issue 41): why an occurrence was suppressed, and the impressions caps count, one
        // per occurrence shown, with the groups its entry was in. The popups shown before count:
        // the delivered occurrences the ledger still holds, with no groups.
        migrator.registerMigration("14-caps") { database in
            try database.execute(
                sql: """
                    ALTER TABLE ledger ADD COLUMN suppression TEXT;
                    CREATE TABLE impression (
                        occurrence_id TEXT PRIMARY KEY NOT NULL,
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        shown_us INTEGER NOT NULL,
                        groups TEXT NOT NULL DEFAULT '',
                        critical INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX impression_by_entry ON impression (source, entry_id, shown_us);
                    INSERT OR IGNORE INTO impression (occurrence_id, source, entry_id, shown_us, critical)
                        SELECT occurrence_id, ledger.source, ledger.entry_id, delivered.delivered_us,
                            delivered.urgency = 'critical'
                        FROM delivered JOIN ledger USING (occurrence_id)
                        WHERE ledger.source != ?;
                    """, arguments: [DeliveredOccurrence.testSource])
        }
        // Receipts (docs/receipts.md): each ledger line's tag, the counts not sealed yet, the
        // bodies sealed and not sent yet, and what each source dropped and last sent.
        migrator.registerMigration("15-receipts") { database in
            try database.execute(
                sql: """
                    ALTER TABLE ledger ADD COLUMN receipts INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE ledger ADD COLUMN receipts_version INTEGER;
                    CREATE TABLE receipt_count (
                        source TEXT NOT NULL,
                        entry_id TEXT NOT NULL,
                        feed_version INTEGER NOT NULL,
                        day INTEGER NOT NULL,
                        counter TEXT NOT NULL,
                        count INTEGER NOT NULL,
                        PRIMARY KEY (source, entry_id, feed_version, day, counter)
                    );
                    CREATE TABLE receipt_batch (
                        batch_id TEXT PRIMARY KEY NOT NULL,
                        source TEXT NOT NULL,
                        endpoint TEXT NOT NULL,
                        body TEXT NOT NULL,
                        receipts INTEGER NOT NULL,
                        total INTEGER NOT NULL,
                        sealed_us INTEGER NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_us INTEGER NOT NULL DEFAULT 0,
                        last_error TEXT
                    );
                    CREATE TABLE receipt_source (
                        source TEXT PRIMARY KEY NOT NULL,
                        dropped_receipts INTEGER NOT NULL DEFAULT 0,
                        dropped_count INTEGER NOT NULL DEFAULT 0,
                        last_sent_us INTEGER,
                        last_error TEXT
                    );
                    """)
        }
        migrator.registerMigration("16-receipt-uploads") { database in
            try database.execute(sql: "ALTER TABLE receipt_source ADD COLUMN last_attempt_us INTEGER")
        }
        migrator.registerMigration("17-receipt-endpoint") { database in
            try database.execute(sql: "ALTER TABLE receipt_source ADD COLUMN endpoint TEXT")
        }
        // The receipt queue's size in bytes (`StateStore.receiptQueueLimit`), kept by the
        // database as rows come and go, so that bounding it reads one number: each sealed body's
        // length, and for each count not sealed yet its entry id's and counter's lengths and 440
        // bytes, at least what it takes in a body.
        migrator.registerMigration("18-receipt-queue-size") { database in
            try database.execute(
                sql: """
                    CREATE TABLE receipt_queue (bytes INTEGER NOT NULL);
                    INSERT INTO receipt_queue (bytes) SELECT
                        (SELECT coalesce(sum(length(entry_id) + length(counter) + 440), 0) FROM receipt_count)
                        + (SELECT coalesce(sum(length(body)), 0) FROM receipt_batch);
                    CREATE TRIGGER receipt_count_added AFTER INSERT ON receipt_count BEGIN
                        UPDATE receipt_queue SET bytes = bytes + length(NEW.entry_id) + length(NEW.counter) + 440;
                    END;
                    CREATE TRIGGER receipt_count_removed AFTER DELETE ON receipt_count BEGIN
                        UPDATE receipt_queue SET bytes = bytes - length(OLD.entry_id) - length(OLD.counter) - 440;
                    END;
                    CREATE TRIGGER receipt_batch_added AFTER INSERT ON receipt_batch BEGIN
                        UPDATE receipt_queue SET bytes = bytes + length(NEW.body);
                    END;
                    CREATE TRIGGER receipt_batch_removed AFTER DELETE ON receipt_batch BEGIN
                        UPDATE receipt_queue SET bytes = bytes - length(OLD.body);
                    END;
                    CREATE INDEX receipt_count_by_day ON receipt_count (day);
                    """)
        }
        return migrator
    }
}
