package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.spark.TestPaths;

/**
 * A bad option value that core or a parser checks, not {@link Require} alone, is refused with a message led by the
 * option's name: from a config file, the file's line comes first ({@link ConfigFile#originOf} matches the leading
 * option); from the command line, the option alone. These said "chains must be at least 2", "number of topics …",
 * "documents must be …", "synthetic logistic data: a true parameter is NaN", "unknown --sync-via …", and a value
 * from the config file was refused without saying where it was. Exit 2 before Spark starts, nothing written.
 */
class ConfigOriginTest {
    private static final String KOS = TestPaths.projectRoot().resolve("data/kos").toString();
    private static final String NILE = TestPaths.projectRoot().resolve("data/nile/nile.csv").toString();
    private static final String ALARM = TestPaths.projectRoot().resolve("data/alarm/alarm.bif").toString();
    /** Replaced by a small CSV table (consensus) or a text corpus (lda --text) in the test's directory. */
    private static final String TABLE = "TABLE";
    private static final String TEXT = "TEXT";

    @TempDir
    Path tmp;

    static Stream<Arguments> values() {
        List<String> consensus = List.of("consensus", "--data", TABLE);
        List<String> lda = List.of("lda", "--docword", KOS + "/docword.kos.txt.gz", "--vocab", KOS + "/vocab.kos.txt");
        List<String> ldaText = List.of("lda", "--text", TEXT);
        List<String> smc = List.of("smc", "--data", NILE, "--time-column", "year");
        return Stream.of(
                Arguments.of(consensus, "chains", "1", "--chains must be ≥ 2 for R-hat within a shard, is 1"),
                Arguments.of(consensus, "scale", "0", "--scale must be a finite number > 0, is 0"),
                Arguments.of(consensus, "warmup", "-1", "--warmup must be ≥ 0, is -1"),
                Arguments.of(consensus, "iterations", "1", "--iterations must be ≥ 2, is 1"),
                Arguments.of(consensus, "kernel", "gibbs", "--kernel must be one of am, independence, laplace-rwm, "
                        + "rwm, slice, slice-doubling, is 'gibbs'"),
                Arguments.of(consensus, "family", "probit",
                        "--family must be one of logistic, poisson, gaussian, is 'probit'"),
                Arguments.of(List.of("consensus", "--data", TABLE, "--family", "gaussian"), "sigma-prior-scale", "0",
                        "--sigma-prior-scale must be a finite number > 0, is 0"),
                Arguments.of(lda, "topics", "0", "--topics must be in [1, 65535], is 0"),
                Arguments.of(lda, "alpha", "-1", "--alpha must be a finite number ≥ 0, is -1"),
                Arguments.of(lda, "beta", "0", "--beta must be a finite number > 0, is 0"),
                Arguments.of(ldaText, "vocab-size", "0", "--vocab-size must be ≥ 1, is 0"),
                Arguments.of(ldaText, "min-df", "0", "--min-df must be ≥ 1, is 0"),
                Arguments.of(lda, "kernel", "vb", "--kernel must be sparse (also sparse-gibbs, sparse_gibbs) or "
                        + "cycle-mh (also cycle_mh), is 'vb'"),
                Arguments.of(lda, "mode", "ring", "--mode must be auto, broadcast or model-parallel, is 'ring'"),
                Arguments.of(lda, "totals-sync", "never", "--totals-sync must be sweep or sub-step, is 'never'"),
                Arguments.of(lda, "sync-via", "barrier", "--sync-via must be auto, relay or jobs, is 'barrier'"),
                Arguments.of(List.of("generate-lda"), "preset", "huge",
                        "--preset must be small, nytimes or pubmed, is 'huge'"),
                Arguments.of(List.of("generate-lda"), "documents", "0", "--documents must be in [1, 2147483647], is 0"),
                Arguments.of(List.of("generate-lda"), "vocabulary", "10",
                        "--vocabulary must be ≥ 20 (the small preset's topics; or give fewer --topics), is 10"),
                Arguments.of(List.of("generate-lda"), "topics", "3000",
                        "--topics must be ≤ the vocabulary size 2000, is 3000"),
                Arguments.of(List.of("generate-lda"), "mean-length", "0.5",
                        "--mean-length must be in [1, 10000000], is 0.5"),
                Arguments.of(List.of("generate-lda"), "alpha", "0", "--alpha must be in (0, 1000000], is 0"),
                Arguments.of(List.of("generate-lda"), "zipf-exponent", "11",
                        "--zipf-exponent must be in [0, 10], is 11"),
                Arguments.of(List.of("generate-lda"), "background", "1", "--background must be in [0, 1), is 1"),
                Arguments.of(List.of("generate-glm"), "coefficients", "1,NaN,1,1,1",
                        "--coefficients must be finite numbers, are [1.0, NaN, 1.0, 1.0, 1.0]"),
                Arguments.of(List.of("generate-glm"), "family", "probit",
                        "--family must be one of logistic, poisson, gaussian, is 'probit'"),
                Arguments.of(List.of("chains"), "target-accept", "1", "--target-accept must be in (0, 1), is 1"),
                Arguments.of(List.of("chains"), "sync-via", "barrier",
                        "--sync-via must be auto, relay or jobs, is 'barrier'"),
                // a model, kernel or filter the catalog does not know was refused without the config file's line
                Arguments.of(List.of("chains"), "model", "bimodel", "--model: unknown model 'bimodel': expected one "
                        + "of "),
                Arguments.of(List.of("chains"), "kernel", "hmc", "--kernel: unknown kernel 'hmc': expected one of "),
                Arguments.of(smc, "model", "garch", "--model: unknown model 'garch'; expected one of "),
                Arguments.of(smc, "filter", "auxiliary",
                        "--filter: unknown filter 'auxiliary'; expected bootstrap or guided"),
                Arguments.of(smc, "resampling", "wheel", "--resampling: unknown resampling scheme 'wheel'; expected "
                        + "one of multinomial, systematic, stratified, residual"),
                Arguments.of(smc, "missing", "ignore",
                        "--missing: unknown missing-observation policy 'ignore'; expected fail or skip"),
                Arguments.of(smc, "sync-via", "barrier", "--sync-via must be auto, relay or jobs, is 'barrier'"),
                Arguments.of(List.of("bn", "--network", ALARM, "--query", "HYPOVOLEMIA"), "method", "mcmc",
                        "--method must be one of lw, rejection, gibbs, exact, is 'mcmc'"));
    }

    @ParameterizedTest(name = "{0} {1} = {2}")
    @MethodSource("values")
    void aBadValueFromTheConfigNamesItsLineAndOneOnTheCommandLineItsOption(List<String> job, String key,
            String value, String expected) throws IOException {
        String name = job.get(0);
        Path conf = Files.writeString(tmp.resolve("run.conf"), "seed = 7\n" + key + " = \"" + value + "\"\n");
        BadInputTest.Result r = run(job, "--conf", conf.toString());
        assertTrue(r.err().startsWith("sparkmc " + name + ": " + conf + ":2: " + expected), r.err());

        Path good = Files.writeString(tmp.resolve("good.conf"), "seed = 7\n");
        BadInputTest.Result cli = run(job, "--conf", good.toString(), "--" + key, value);
        assertTrue(cli.err().startsWith("sparkmc " + name + ": " + expected), cli.err());
    }

    /** HOCON's yes/no and on/off booleans were refused ("'yes' is not a boolean"); a non-boolean names its line. */
    @Test
    void configBooleansReadAsHoconReadsThem() throws IOException {
        Path yes = Files.writeString(tmp.resolve("yes.conf"), "cmdstan-csv = yes\nadapt = off\nchains = 0\n");
        BadInputTest.Result r = run(List.of("chains"), "--conf", yes.toString());
        assertTrue(r.err().contains(yes + ":3: --chains must be"), "yes and off are read; chains = 0 is not: "
                + r.err());
        Path maybe = Files.writeString(tmp.resolve("maybe.conf"), "seed = 1\ncmdstan-csv = maybe\n");
        r = run(List.of("chains"), "--conf", maybe.toString());
        assertTrue(r.err().contains(maybe + ":2: 'cmdstan-csv' must be true or false (or yes/no, on/off), is "
                + "\"maybe\""), r.err());
    }

    /** {@code job} with these options and {@code --out}: exit 2, no stack trace, nothing written. */
    private BadInputTest.Result run(List<String> job, String... options) throws IOException {
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>();
        for (String arg : job) {
            args.add(arg.equals(TABLE) ? table() : arg.equals(TEXT) ? text() : arg);
        }
        args.addAll(List.of(options));
        args.addAll(List.of("--out", out.toString()));
        BadInputTest.Result r = BadInputTest.runCapturing(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
        return r;
    }

    private String table() throws IOException {
        return Files.writeString(tmp.resolve("t.csv"), "y,x1\n1,0.5\n0,0.1\n").toString();
    }

    private String text() throws IOException {
        return Files.writeString(tmp.resolve("corpus.txt"), "alpha beta gamma\nbeta gamma delta\n").toString();
    }
}
