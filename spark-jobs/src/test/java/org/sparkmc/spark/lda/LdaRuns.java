package org.sparkmc.spark.lda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.spark.TestPaths;

/** The shipped KOS corpus and a small lda run on it, with readers of its outputs. */
public final class LdaRuns {
    static final String DOCWORD = TestPaths.projectRoot().resolve("data/kos/docword.kos.txt.gz").toString();
    static final String VOCAB = TestPaths.projectRoot().resolve("data/kos/vocab.kos.txt").toString();

    private LdaRuns() {
    }

    /** {@code lda} on KOS with K = 10, 4 blocks, a few sweeps and a short held-out fold-in; the extra options
     * override these defaults. */
    static String[] kos(Path out, int sweeps, String... extra) {
        List<String> defaults = List.of("--topics", "10", "--blocks", "4", "--eval-burn-in", "3", "--eval-samples",
                "3", "--seed", "11");
        List<String> args = new ArrayList<>(List.of("lda", "--docword", DOCWORD, "--vocab", VOCAB, "--sweeps",
                Integer.toString(sweeps), "--out", out.toString()));
        for (int i = 0; i < defaults.size(); i += 2) {
            if (!Arrays.asList(extra).contains(defaults.get(i))) {
                args.addAll(defaults.subList(i, i + 2));
            }
        }
        args.addAll(Arrays.asList(extra));
        return args.toArray(String[]::new);
    }

    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** loglik.csv without its timing columns (sweep, log-likelihood, per token). */
    public static List<String> loglikWithoutTimes(Path out) {
        return read(out.resolve("loglik.csv")).lines()
                .map(l -> Stream.of(l.split(",")).limit(3).collect(Collectors.joining(","))).toList();
    }

    /** doc_topic.parquet sorted by document id, as strings. */
    public static List<String> docTopics(SparkSession spark, Path out) {
        return spark.read().parquet(out.resolve("doc_topic.parquet").toString()).orderBy("doc_id").collectAsList()
                .stream().map(Row::toString).toList();
    }

    /** summary.json without its timings. */
    static List<String> summaryWithoutTimes(Path out) {
        return read(out.resolve("summary.json")).lines()
                .filter(l -> !l.matches("\\s*\"(seconds|sampling_seconds|sync_seconds|share_outside_sampling|"
                        + "tokens_per_second|resumed)\".*")).toList();
    }
}
