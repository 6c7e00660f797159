package org.sparkmc.spark.chains;

import java.io.Serializable;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.model.Target;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.NotInFingerprint;
import org.sparkmc.spark.sync.SyncVia;

/**
 * A validated {@code chains} run: what to sample, with which kernel, how many chains and draws, when to stop.
 *
 * <p>Its components are also the run's checkpoint {@link Fingerprint}: a {@code --resume} needs every component equal
 * but those marked {@link NotInFingerprint}: the target and the kernel, objects built from the settings beside them
 * (the model's name and parameters; the kernel's name, scale, adaptation and target acceptance with the warm-up);
 * {@code maxRounds}, {@code minEss} and {@code maxRhat}, which only say when to stop, so a resumed run may go on
 * longer or stop sooner; and {@code partitions}, {@code driverDrawsLimit} and {@code syncVia}, which change no
 * draw. (The kernel's threads change no draw either and are not here.)
 *
 * @param paramsSha256 {@link Fingerprint#sha256} of the model's parameters and data, which with {@code modelName}
 *                   make the target
 * @param scale      the kernel's initial proposal scale
 * @param adapt      whether the kernel adapts during warm-up
 * @param targetAccept the acceptance rate adaptation aims at (NaN: the kernel's default)
 * @param warmup     warm-up iterations per chain (adaptation on, draws discarded)
 * @param roundSize  iterations per chain per round; diagnostics are computed after each sampling round
 * @param maxRounds  at most this many sampling rounds
 * @param partitions Spark partitions the chains are spread over (does not change any draw)
 * @param driverDrawsLimit at most this many draws (chains × draws × parameters) are summarised on the driver;
 *                   beyond, diagnostics run by parameter on the executors (same numbers)
 * @param syncVia    how the rounds run: all in one relayed stage, or a Spark job each (same numbers)
 */
public record ChainsConfig(String modelName, @NotInFingerprint Target target, String paramsSha256, String kernelName,
        @NotInFingerprint Kernel<?> kernel, double scale, boolean adapt, double targetAccept, int chains, int warmup,
        int roundSize, @NotInFingerprint int maxRounds, @NotInFingerprint double minEss,
        @NotInFingerprint double maxRhat, long seed, @NotInFingerprint int partitions,
        @NotInFingerprint long driverDrawsLimit, @NotInFingerprint SyncVia syncVia) implements Serializable {
    /**
     * The longest array HotSpot allocates (a round's draws of one chain are arrays of --round-size values; at
     * 2^31 − 1 the run died with "Requested array size exceeds VM limit").
     */
    static final int LONGEST_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * Default of {@code driverDrawsLimit}: as many draws as fill an eighth of the driver's heap (8 bytes each), so
     * the diagnostics' working copies fit beside them: 16.8 million with Spark's default 1 GiB driver, 67 million
     * with the launcher's 4 GiB in local mode.
     */
    public static long defaultDriverDraws() {
        return Runtime.getRuntime().maxMemory() / 64;
    }

    public ChainsConfig {
        Require.atLeast(chains, 2, "--chains", "for R-hat");
        Require.atLeast(warmup, 0, "--warmup");
        Require.atLeast(roundSize, 1, "--round-size");
        Require.atLeast(maxRounds, 1, "--max-rounds");
        Require.atLeast(minEss, 0, "--min-ess");
        Require.above(maxRhat, 1, "--max-rhat");
        Require.atLeast(partitions, 1, "--partitions");
        Require.atLeast(driverDrawsLimit, 0, "--driver-draws-limit");
        if ((long) roundSize * maxRounds > LONGEST_ARRAY) {
            throw new InvalidInputException("round-size × max-rounds, the sampling draws per chain at most, must be ≤ "
                    + LONGEST_ARRAY + " (the longest array a JVM allocates), is " + (long) roundSize * maxRounds
                    + "; lower --max-rounds");
        }
        if (((long) warmup + roundSize - 1) / roundSize + maxRounds > Integer.MAX_VALUE) {
            throw new InvalidInputException("warm-up and sampling rounds together must be ≤ " + Integer.MAX_VALUE
                    + "; lower --warmup or --max-rounds, or raise --round-size");
        }
    }

    /** The same run on {@code n} partitions. */
    public ChainsConfig withPartitions(int n) {
        return new ChainsConfig(modelName, target, paramsSha256, kernelName, kernel, scale, adapt, targetAccept, chains,
                warmup, roundSize, maxRounds, minEss, maxRhat, seed, n, driverDrawsLimit, syncVia);
    }

    /** The summarised rows of every draw: the target's parameters and lp__. */
    public int summarisedRows() {
        return target.parameterNames().size() + 1;
    }

    /**
     * Whether the driver can hold every summarised draw the run may make (chains × draws × rows, up to
     * {@code maxRounds} rounds, at most {@code driverDrawsLimit}), which the relayed rounds need.
     */
    public boolean driverHoldsEveryDraw() {
        return (long) maxRounds * roundSize * chains <= driverDrawsLimit / summarisedRows();
    }

    /** The checkpoint fingerprint of this run: its components but those marked {@link NotInFingerprint}. */
    public String fingerprint() {
        return Fingerprint.of(this);
    }

    /** Warm-up rounds: the warm-up iterations cut into rounds of {@code roundSize} (the last may be shorter). */
    public int warmupRounds() {
        return (int) (((long) warmup + roundSize - 1) / roundSize);
    }

    /** The number of the last round the run may reach: warm-up rounds, then at most {@code maxRounds} sampling. */
    public int lastRound() {
        return warmupRounds() + maxRounds;
    }

    /** The iterations of round {@code r} (from 1): {@code roundSize}, but the last warm-up round may be shorter. */
    public int iterations(int r) {
        return r <= warmupRounds() ? Math.min(roundSize, warmup - (r - 1) * roundSize) : roundSize;
    }
}
