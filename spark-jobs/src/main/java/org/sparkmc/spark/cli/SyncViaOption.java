package org.sparkmc.spark.cli;

import org.sparkmc.spark.sync.SyncVia;
import picocli.CommandLine.Option;

/** The {@code --sync-via} option of the jobs that synchronise every step ({@code lda}, {@code smc}, {@code chains}). */
public final class SyncViaOption {
    @Option(names = "--sync-via", paramLabel = "HOW", defaultValue = "auto",
            description = "How the steps of several partitions run, with the same numbers: relay (many steps in one "
                + "Spark stage, synchronised through a relay on the driver, which the executors must reach on an "
                + "ephemeral port), jobs (one Spark job per step), or auto (relay when every partition gets a task "
                + "slot at once and dynamic allocation is off, and for chains when nothing is checkpointed and the "
                + "driver can hold every draw; the log says which and why). Default: ${DEFAULT-VALUE}.")
    private String value;

    /** The parsed value; an unknown one is bad input. */
    public SyncVia value() {
        return SyncVia.parse(value);
    }
}
