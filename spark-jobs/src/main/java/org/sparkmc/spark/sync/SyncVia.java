package org.sparkmc.spark.sync;

import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.cli.Counted;

/**
 * How an iterative job's synchronised steps run ({@code --sync-via}); either way gives the same numbers.
 */
public enum SyncVia {
    /** The relay when every partition gets a task slot at once and dynamic allocation is off, else jobs. */
    AUTO,
    /** Many steps in one barrier stage, synchronised through a {@link RoundRelay} on the driver. */
    RELAY,
    /** One Spark job per step, its results collected by the driver. */
    JOBS;

    /** The value of {@code --sync-via}: auto, relay or jobs (any case). */
    public static SyncVia parse(String option) {
        return switch (option.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "relay" -> RELAY;
            case "jobs" -> JOBS;
            default -> throw new InvalidInputException("--sync-via must be auto, relay or jobs, is '" + option + "'");
        };
    }

    /** Which way a job's steps run now, and why, in words for its log. */
    public record Choice(boolean relays, String why) {
    }

    /**
     * Whether a job of {@code partitions} partitions runs its steps relayed now (asked for, or AUTO and the stage fits:
     * {@link RelayedStage#fits}), with the reason: the option, and the task slots or dynamic allocation it was weighed
     * against. An asked-for relay that cannot fit is refused: Spark would otherwise retry the barrier stage's slot
     * check for ten minutes. On a cluster whose executors are still registering, it first waits for them
     * ({@link RelayedStage#awaitSlots}).
     *
     * @throws InvalidInputException for RELAY when the stage cannot fit
     */
    public Choice choose(JavaSparkContext sc, int partitions) {
        String option = "--sync-via " + name().toLowerCase(Locale.ROOT);
        if (this == JOBS) {
            return new Choice(false, option);
        }
        RelayedStage.awaitSlots(sc, partitions);
        boolean fits = RelayedStage.fits(sc, partitions);
        int most = RelayedStage.slotsAtMost(sc.getConf());
        String room = RelayedStage.dynamicAllocation(sc) ? "dynamic allocation is on"
                : Counted.of(partitions, "partition") + (partitions == 1 ? " needs " : " need ")
                        + Counted.of(partitions, "task slot") + " and the executors have "
                        + RelayedStage.slots(sc) + (most < partitions ? ", " + most + " at most by the settings" : "");
        if (this == RELAY && !fits) {
            throw new InvalidInputException("--sync-via relay runs every partition's task at once, but " + room
                    + "; use fewer --partitions or --sync-via jobs");
        }
        return new Choice(fits, option + ": " + room);
    }
}
