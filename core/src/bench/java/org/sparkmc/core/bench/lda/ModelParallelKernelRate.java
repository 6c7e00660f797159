package org.sparkmc.core.bench.lda;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver;
import org.sparkmc.core.lda.ModelParallelLda;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/**
 * The model-parallel LDA kernel's own rate on one thread, without Spark: the per-core ceiling of the {@code lda} job's
 * model-parallel mode on a corpus. It reads a UCI docword directory (a {@code header} and {@code part-*} files, as
 * {@code generate-corpus} writes them), cuts it into P blocks and P word slices, runs whole sweeps through
 * {@link ModelParallelDriver} (every sub-step's count tables built, swept and exported, as a task does), then repeats
 * the first sub-step of every block from the same state {@code reps} times and prints their median: a steadier
 * figure for comparing two builds than whole sweeps, whose state moves on.
 *
 * <p>Usage: {@code ModelParallelKernelRate <docword dir> <K> <alpha> <P> <sweeps> [reps]}, with
 * {@code -Dkernel=SPARSE_GIBBS} for the exact sparse kernel (default {@code CYCLE_MH}). β = 0.01, seed 42.
 */
public final class ModelParallelKernelRate {
    private ModelParallelKernelRate() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int k = Integer.parseInt(args[1]);
        double alpha = Double.parseDouble(args[2]);
        int p = Integer.parseInt(args[3]);
        int sweeps = Integer.parseInt(args[4]);
        int reps = args.length > 5 ? Integer.parseInt(args[5]) : 0;
        LdaKernel kernel = LdaKernel.valueOf(System.getProperty("kernel", "CYCLE_MH"));
        LdaPriors priors = new LdaPriors(k, alpha, 0.01);

        long t0 = System.nanoTime();
        Corpus corpus = read(dir);
        System.out.printf(Locale.ROOT, "read %,d tokens in %,d documents (%.1f s)%n", corpus.numTokens(),
                corpus.numDocuments(), seconds(t0));
        t0 = System.nanoTime();
        ModelParallelDriver driver = ModelParallelDriver.start(corpus, p, priors, kernel, new RandomStreams(42),
                ModelParallelDriver.TotalsSync.SWEEP);
        System.out.printf(Locale.ROOT, "random start, %d blocks and slices, %s (%.1f s)%n", p, kernel, seconds(t0));
        for (int s = 1; s <= sweeps; s++) {
            t0 = System.nanoTime();
            driver.sweep();
            double secs = seconds(t0);
            System.out.printf(Locale.ROOT, "sweep %d: %.1f s, %.3f M tokens/s%n", s, secs,
                    corpus.numTokens() / secs / 1e6);
        }
        double[] rates = new double[reps];
        RandomStreams streams = new RandomStreams(7);
        for (int r = 0; r < reps; r++) {
            long tokens = 0;
            t0 = System.nanoTime();
            for (int b = 0; b < p; b++) {
                int j = ModelParallelLda.sliceOf(b, 0, p);
                int[] ranges = driver.wordSlices().ranges(driver.block(b), j);
                for (int d = 0; d < ranges.length; d += 2) {
                    tokens += ranges[d + 1] - ranges[d];
                }
                ModelParallelLda.sample(driver.block(b), driver.topics(b), driver.slice(j), driver.topicTotals(),
                        driver.wordSlices(), priors, kernel, streams, r, b);
            }
            double secs = seconds(t0);
            rates[r] = tokens / secs / 1e6;
            System.out.printf(Locale.ROOT, "repeat %d of sub-step 0: %.2f s, %.3f M tokens/s%n", r + 1, secs,
                    rates[r]);
        }
        if (reps > 0) {
            Arrays.sort(rates);
            System.out.printf(Locale.ROOT, "median of %d repeats: %.3f M tokens/s%n", reps, rates[reps / 2]);
        }
    }

    private static Corpus read(Path dir) throws IOException {
        List<Path> parts;
        try (Stream<Path> files = Files.list(dir)) {
            parts = files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
        }
        List<InputStream> in = new ArrayList<>();
        in.add(Files.newInputStream(dir.resolve("header")));
        for (Path part : parts) {
            in.add(Files.newInputStream(part));
        }
        try (InputStream all = new SequenceInputStream(Collections.enumeration(in))) {
            return UciBagOfWords.readDocword(all, dir.toString()).corpus();
        }
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
