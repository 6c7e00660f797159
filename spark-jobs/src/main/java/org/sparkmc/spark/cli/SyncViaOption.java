package org.sparkmc.spark.cli;

import org.sparkmc.spark.sync.SyncVia;
import picocli.CommandLine.Option;

/** The {@code --sync-via} option of the jobs that synchronise every step ({@code lda}, {@code smc}, {@code chains}). */
public final class SyncViaOption {
    /** The help's first part; the chains command's help ({@link CatalogHelp}) adds its own conditions for auto. */
    static final String HOW = "How the steps of several partitions run, with the same numbers: relay (many steps in "
            + "one Spark stage, synchronised through a relay on the driver, which the executors must reach on an "
            + "ephemeral port), jobs (one Spark job per step), or auto (relay when every partition gets a task slot at "
            + "once and dynamic allocation is off";
    /** The help's last part. */
    static final String WHICH = "; the log says which and why). Default: ${DEFAULT-VALUE}.";

    @Option(names = "--sync-via", paramLabel = "HOW", defaultValue = "auto", descriptionKey = "sync-via",
            description = HOW + WHICH)
    private String value;

    /** The parsed value; an unknown one is bad input. */
    public SyncVia value() {
        return SyncVia.parse(value);
    }
}
