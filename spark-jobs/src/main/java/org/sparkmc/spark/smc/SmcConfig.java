package org.sparkmc.spark.smc;

import java.io.Serializable;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.SmcModel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.NotInFingerprint;
import org.sparkmc.spark.sync.SyncVia;

/**
 * A validated {@code smc} run.
 *
 * <p>With the {@link SmcCommand.Sources} of its model and data, its components are the run's checkpoint
 * {@link Fingerprint}: a {@code --resume} needs them equal but those marked {@link NotInFingerprint}: the model, an
 * object built from its sources, and the partitions, the lineage cuts and how steps run, which change no number.
 *
 * @param particles N, the number of particles (≥ 1)
 * @param options resampling scheme, ESS threshold τ, block size (part of the output contract with the seed), and
 *     what a missing observation does
 * @param partitions Spark partitions, each owning whole blocks (does not change any number)
 * @param lineageEvery the particle RDD's lineage is cut (Spark RDD checkpoint) every this many steps
 * @param lineageDir reliable RDD checkpoints that cut the lineage go here; null cuts it with local checkpoints
 *     (executor storage, lost with the executor). Not the run's resumable checkpoint ({@link SmcJob.Checkpointing})
 * @param syncVia how the steps of several partitions run (does not change any number)
 */
public record SmcConfig(@NotInFingerprint SmcModel model, int particles, SmcOptions options,
        @NotInFingerprint int partitions, long seed, @NotInFingerprint int lineageEvery,
        @NotInFingerprint String lineageDir, @NotInFingerprint SyncVia syncVia) implements Serializable {

    /** A run whose steps run as {@link SyncVia#AUTO} picks. */
    public SmcConfig(SmcModel model, int particles, SmcOptions options, int partitions, long seed, int lineageEvery,
            String lineageDir) {
        this(model, particles, options, partitions, seed, lineageEvery, lineageDir, SyncVia.AUTO);
    }

    public SmcConfig {
        Require.atLeast(particles, 1, "--particles");
        Require.atLeast(partitions, 1, "--partitions");
        Require.atLeast(lineageEvery, 1, "--lineage-every");
        if (partitions > blocks(particles, options.blockSize())) {
            throw new InvalidInputException("partitions (" + partitions + ") exceed the " + blocks(particles,
                    options.blockSize()) + " blocks of " + options.blockSize() + " particles: each partition owns "
                    + "whole blocks, so lower --partitions or --block-size");
        }
    }

    /** B = ⌈N / block size⌉. */
    public int blocks() {
        return blocks(particles, options.blockSize());
    }

    static int blocks(long particles, int blockSize) {
        return (int) ((particles + blockSize - 1) / blockSize);
    }

    public SmcConfig withPartitions(int p) {
        return new SmcConfig(model, particles, options, p, seed, lineageEvery, lineageDir, syncVia);
    }
}
