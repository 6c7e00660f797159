package org.sparkmc.spark.cli;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.io.CheckpointLease;
import org.sparkmc.spark.io.CheckpointStates;
import org.sparkmc.spark.run.CheckpointCadence;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The checkpoint options of an iterative job: where it saves its complete state and whether to resume from it. (How
 * often it saves, {@code --checkpoint-every}, is the job's own: rounds, sweeps or steps.)
 */
public final class ResumeOptions {
    /** The option naming the save cadence, declared by each job beside this mixin. */
    public static final String EVERY = "--checkpoint-every";

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ResumeOptions.class);

    @Spec(Spec.Target.MIXEE)
    private CommandSpec job;

    @Option(names = "--checkpoint", paramLabel = "DIR",
            description = "Save the run's complete state here (as often as --checkpoint-every says) so --resume can "
                + "finish it after a crash with identical outputs.")
    private String dir;

    @Option(names = "--resume", fallbackValue = "true",
            description = "Continue from the newest checkpoint in --checkpoint (a fresh start "
            + "when there is none yet), which must come from a run with the same settings and data.")
    private boolean resume;

    /**
     * The save cadence given as {@code --checkpoint-every} ({@code every}: {@code auto} or a whole number of steps);
     * fails as bad input on any other value and on --resume without --checkpoint. A cadence other than the job's
     * default without --checkpoint is only warned of: a command line may keep it while adding and dropping
     * --checkpoint.
     */
    public CheckpointCadence cadence(String every) {
        CheckpointCadence cadence = CheckpointCadence.parse(every, EVERY);
        check(dir, resume);
        if (dir == null && !every.equals(job.findOption(EVERY).defaultValue())) {
            LOG.warn("{} {} has no effect without --checkpoint DIR, which it spaces the saves to", EVERY, every);
        }
        return cadence;
    }

    /** Fails as bad input on {@code resume} without a checkpoint directory. */
    public static void check(String dir, boolean resume) {
        if (resume && dir == null) {
            throw new InvalidInputException("--resume needs --checkpoint DIR");
        }
    }

    /**
     * Claims the checkpoint directory, if any, before Spark starts ({@link CheckpointStates#claim}): a foreign
     * non-empty or unwritable directory is refused now, and so is one another run is using
     * ({@link CheckpointLease}), and, without {@code --resume}, one holding an earlier run's state.
     *
     * @return the run's hold on the directory, to close when the run ends
     */
    public Claim claim() {
        if (dir == null) {
            return new Claim(null, CheckpointStates.Claimed.NOTHING, CheckpointLease.none(), null);
        }
        String createdFrom = CheckpointStates.highestMissing(dir, SparkSetup.hadoopConfiguration());
        CheckpointStates.Claimed claimed = CheckpointStates.claim(dir, SparkSetup.hadoopConfiguration(), resume);
        return new Claim(dir, claimed, CheckpointLease.take(dir, SparkSetup.hadoopConfiguration()), createdFrom);
    }

    /**
     * A run's hold on its checkpoint directory: closing it removes the marker the claim wrote if the run wrote nothing
     * else there ({@link CheckpointStates#releaseUnused}), while it still holds the lease, then releases the lease and
     * removes the directory the claim created if it is empty ({@link CheckpointStates#removeIfEmpty}); so a run
     * refused after its claim (a master Spark cannot use, bad input found on the executors) leaves no directory
     * behind, nor the parents it created for it ({@code createdFrom}: the highest, null for none), and another run
     * entering the directory never loses its lease to the undoing.
     */
    public record Claim(String dir, CheckpointStates.Claimed claimed, CheckpointLease lease, String createdFrom)
            implements AutoCloseable {
        @Override
        public void close() {
            lease.close(() -> CheckpointStates.releaseUnused(dir, SparkSetup.hadoopConfiguration(), claimed));
            if (dir != null) {
                CheckpointStates.removeIfEmpty(dir, SparkSetup.hadoopConfiguration(), claimed, createdFrom);
            }
        }
    }

    /** The checkpoint directory, or null for none. */
    public String dir() {
        return dir;
    }

    public boolean resume() {
        return resume;
    }
}
