package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.Observations;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.spark.run.StepRunner;
import org.sparkmc.spark.run.SteppedJob;

/**
 * The {@code smc} job's time steps as {@link StepRunner} drives them: the observations of a feed, batch after batch,
 * in the chunks {@link SmcJob} runs as one (a task, a relayed stage, or one step), with a progress line per step. A
 * resumed run reads the feed from its start and checks that the observations its checkpoint consumed are the same.
 */
final class FeedSteps implements SteppedJob {
    private static final Logger LOG = LoggerFactory.getLogger(SmcJob.class);

    private final SmcJob job;
    private final ObservationFeed feed;
    private final List<StepRow> rows = new ArrayList<>();
    /** The checkpoint's rows, replayed against the feed before any step runs. */
    private List<StepRow> restored;
    private int replayed;
    private Observations batch;
    private int next;
    /** The steps in all when the feed is one file, else 0. */
    private int expected;
    private long started;

    FeedSteps(SmcJob job, ObservationFeed feed) {
        this.job = job;
        this.feed = feed;
    }

    /** The steps' rows, the checkpoint's included. */
    List<StepRow> rows() {
        return rows;
    }

    @Override
    public void initialise() {
        job.initialize();
        restored = job.restoredRows();
        rows.addAll(restored);
        started = System.nanoTime();
        nextBatch();
        // a single file's length is known; a directory's is not
        expected = batch != null && feed.singleFile() ? batch.size() : 0;
    }

    private void nextBatch() {
        batch = feed.next();
        next = 0;
        if (batch != null && feed.online()) {
            LOG.info("smc: batch {} ({} observations)", feed.currentSource(), batch.size());
        }
    }

    @Override
    public int plannedSteps() {
        return expected > 0 ? expected : Integer.MAX_VALUE;
    }

    @Override
    public int stepsDone() {
        return job.steps();
    }

    /** Whether the feed has no observation left to step with; replays the checkpoint's observations on the way. */
    @Override
    public boolean isDone() {
        while (batch != null) {
            if (next == batch.size()) {
                nextBatch();
            } else if (replayed < restored.size()) {
                checkReplayed(feed.location(), restored.get(replayed++), batch.time(next), batch.value(next));
                next++;
            } else {
                return false;
            }
        }
        if (replayed < restored.size()) {
            throw tooFew(feed.location(), replayed, restored.size(), job.checkpointDir());
        }
        return true;
    }

    /**
     * Before Spark starts, for data that is not followed: the observations a checkpoint consumed ({@code saved})
     * must be the first ones of {@code feed}, a feed of its own that this reads to that point.
     */
    static void checkReplayBeforeSpark(ObservationFeed feed, List<StepRow> saved, String checkpointDir) {
        int replayed = 0;
        Observations b;
        while (replayed < saved.size() && (b = feed.next()) != null) {
            for (int i = 0; i < b.size() && replayed < saved.size(); i++) {
                checkReplayed(feed.location(), saved.get(replayed++), b.time(i), b.value(i));
            }
        }
        if (replayed < saved.size()) {
            throw tooFew(feed.location(), replayed, saved.size(), checkpointDir);
        }
    }

    private static InvalidInputException tooFew(String location, int replayed, int consumed, String checkpointDir) {
        return new InvalidInputException("the data " + location + " hold " + replayed + " observations, but the "
                + "checkpoint in " + checkpointDir + " already consumed " + consumed
                + "; --resume needs the same data");
    }

    /** A replayed observation must be the one the checkpointed run consumed at that step (bit for bit). */
    private static void checkReplayed(String location, StepRow saved, double time, double[] y) {
        if (Double.compare(saved.time(), time) != 0 || !Arrays.equals(saved.observation(), y)) {
            throw new InvalidInputException("the data " + location + " differ from the checkpointed run's at "
                    + "time step " + saved.step() + " (0-based, as filter.csv's step; progress line "
                    + (saved.step() + 1) + "; t " + time + " " + Arrays.toString(y) + ", checkpoint: t "
                    + saved.time() + " " + Arrays.toString(saved.observation()) + "); --resume needs the same data");
        }
    }

    /** The next chunk of the current batch's observations, at most {@code limit}; a line per step as it ends. */
    @Override
    public void advance(int limit, Consumer<StepLine> lines) {
        int count = job.chunkLength(Math.min(batch.size() - next, limit));
        List<double[]> ys = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            ys.add(batch.value(next + k));
        }
        Observations current = batch;
        int from = next;
        int firstStep = job.steps();
        double[] logLik = {job.logLikelihood()};
        long[] previous = {System.nanoTime()};
        // The run's last chunk keeps no particles unless a checkpoint will save them.
        boolean endsRun = expected > 0 && from + count == batch.size() && job.checkpointDir() == null;
        // A relayed stage reports each step as its rounds come, the other engines after their job.
        List<StepSummary> done = job.advance(ys, s -> {
            int k = s.step() - firstStep;
            StepRow row = new StepRow(s.step(), current.time(from + k), ys.get(k), s);
            rows.add(row);
            logLik[0] += s.logLikelihoodIncrement();
            long now = System.nanoTime();
            double perStep = (now - previous[0]) / 1e9;
            previous[0] = now;
            lines.accept(new StepLine(row.step() + 1, "filter", line(row, (now - started) / 1e9, logLik[0], perStep),
                    expected > 0 && row.step() + 1 == expected));
        }, endsRun);
        next += done.size();
    }

    @Override
    public void snapshot() {
        job.save(rows);
    }

    @Override
    public String closingLine() {
        return String.format(Locale.ROOT, "smc: %d steps, log p̂ %.4f, %d resampling steps", job.steps(),
                job.logLikelihood(), job.resamplings());
    }

    @Override
    public void release() {
        job.release();
    }

    private String line(StepRow row, double seconds, double logLik, double stepSeconds) {
        StepSummary s = row.summary();
        SmcConfig config = job.config();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "step %d%s t %s ", s.step() + 1,
                expected > 0 ? "/" + expected : "", number(row.time())));
        List<String> names = config.model().stateNames();
        for (int k = 0; k < Math.min(3, names.size()); k++) {
            b.append(String.format(Locale.ROOT, " %s %s ± %s", names.get(k), number(s.mean()[k]),
                    number(Math.sqrt(s.variance()[k]))));
        }
        double perStep = seconds / (s.step() + 1 - restored.size());
        b.append(String.format(Locale.ROOT, "  ESS %.0f (%.0f%%)%s  log p̂ %.3f  %.1f steps/s  %s particle-steps/s",
                s.ess(), 100 * s.ess() / config.particles(), s.resampled() ? "  resampled" : "",
                logLik, 1 / perStep, number(config.particles() / perStep)));
        // This step's wall time split into the executors' moving and weighting and the rest (scheduling, collecting,
        // resampling's shuffle).
        double compute = job.computeSeconds();
        b.append(String.format(Locale.ROOT, "  compute %.1f ms  sync %.1f ms", 1e3 * compute,
                1e3 * Math.max(0, stepSeconds - compute)));
        if (!s.observed()) {
            b.append("  (missing observation skipped)");
        }
        return b.toString();
    }

    private static String number(double v) {
        double a = Math.abs(v);
        if (a != 0 && (a >= 1e6 || a < 1e-3)) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        return v == Math.rint(v) && a < 1e6 ? String.format(Locale.ROOT, "%.0f", v)
                : String.format(Locale.ROOT, "%.4g", v);
    }
}
