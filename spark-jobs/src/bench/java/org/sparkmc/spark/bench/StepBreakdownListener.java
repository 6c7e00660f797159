package org.sparkmc.spark.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerApplicationEnd;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.TaskInfo;

/**
 * Where a Spark job's time goes, per job group ({@code sparkmc-lda-sweep-*} → {@code sparkmc-lda-sweep}): job wall
 * time (submission to end, as the scheduler sees it), the longest task, the job's time outside its tasks, and per
 * task the scheduler delay, closure deserialisation, run, result serialisation, GC and result bytes. Spark's task
 * metrics are whole milliseconds, so the table gives means over many jobs. Prints the table when the application
 * ends (or on {@link #print}).
 *
 * <p>Use with any job: {@code -Dspark.extraListeners=org.sparkmc.spark.bench.StepBreakdownListener} and the bench
 * classes on the class path, e.g. {@code SPARKMC_JAVA_OPTS="-Xmx4g -Dspark.extraListeners=…"
 * submit/sparkmc --classpath spark-jobs/target/test-classes lda …}.
 */
public final class StepBreakdownListener extends SparkListener {
    private final Map<Integer, String> groupOfJob = new HashMap<>();
    private final Map<Integer, Long> startOfJob = new HashMap<>();
    private final Map<Integer, Integer> jobOfStage = new HashMap<>();
    private final Map<Integer, List<long[]>> tasksOfJob = new HashMap<>();
    private final Map<String, List<long[]>> jobsOfGroup = new TreeMap<>();
    private long lastJobEnd = -1;

    @Override
    public synchronized void onJobStart(SparkListenerJobStart start) {
        String group = start.properties() == null ? null : start.properties().getProperty("spark.jobGroup.id");
        group = group == null ? "(none)" : group.replaceAll("-\\d+$", "");
        groupOfJob.put(start.jobId(), group);
        startOfJob.put(start.jobId(), start.time());
        scala.collection.Iterator<Object> it = start.stageIds().iterator();
        while (it.hasNext()) {
            jobOfStage.put((Integer) it.next(), start.jobId());
        }
        tasksOfJob.put(start.jobId(), new ArrayList<>());
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        Integer job = jobOfStage.get(end.stageId());
        TaskMetrics m = end.taskMetrics();
        if (job == null || m == null || tasksOfJob.get(job) == null) {
            return;
        }
        TaskInfo info = end.taskInfo();
        long deser = m.executorDeserializeTime();
        long run = m.executorRunTime();
        long ser = m.resultSerializationTime();
        long getting = info.gettingResultTime() > 0 ? info.finishTime() - info.gettingResultTime() : 0;
        long duration = info.finishTime() - info.launchTime();
        long delay = Math.max(0, duration - deser - run - ser - getting);
        tasksOfJob.get(job).add(new long[] {duration, delay, deser, run, ser, m.jvmGCTime(), m.resultSize(),
                m.shuffleWriteMetrics().writeTime() / 1_000_000, m.shuffleReadMetrics().fetchWaitTime(),
                end.stageId()});
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd end) {
        List<long[]> tasks = tasksOfJob.remove(end.jobId());
        Long start = startOfJob.remove(end.jobId());
        if (tasks == null || start == null) {
            return;
        }
        long wall = end.time() - start;
        // stages run one after another: the job's critical path is the sum of each stage's longest task
        Map<Long, Long> stageLongest = new HashMap<>();
        tasks.forEach(t -> stageLongest.merge(t[9], t[0], Math::max));
        long longest = stageLongest.values().stream().mapToLong(Long::longValue).sum();
        long[] row = new long[13];
        row[12] = lastJobEnd < 0 ? 0 : start - lastJobEnd;
        lastJobEnd = end.time();
        row[0] = wall;
        row[1] = longest;
        row[2] = wall - longest;
        row[3] = tasks.size();
        for (long[] t : tasks) {
            for (int i = 1; i < 9; i++) {
                row[3 + i] += t[i];
            }
        }
        jobsOfGroup.computeIfAbsent(groupOfJob.remove(end.jobId()), g -> new ArrayList<>()).add(row);
    }

    @Override
    public void onApplicationEnd(SparkListenerApplicationEnd end) {
        print();
    }

    /** Prints one row per job group: means per job (wall, longest task, outside tasks) and per task. */
    public synchronized void print() {
        System.err.println("| job group | jobs | job wall ms | longest task ms | job outside tasks ms | tasks/job "
                + "| per task: scheduler delay ms | deserialise ms | run ms | result serialise ms | GC ms "
                + "| result bytes | shuffle write ms | shuffle fetch wait ms | driver before the job ms |");
        System.err.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Map.Entry<String, List<long[]>> e : jobsOfGroup.entrySet()) {
            List<long[]> jobs = e.getValue();
            double n = jobs.size();
            double tasks = jobs.stream().mapToLong(r -> r[3]).sum();
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "| %s | %d", e.getKey(), jobs.size()));
            for (int i = 0; i < 4; i++) {
                int col = i;
                b.append(String.format(Locale.ROOT, " | %.2f", jobs.stream().mapToLong(r -> r[col]).sum() / n));
            }
            for (int i = 4; i < 12; i++) {
                int col = i;
                b.append(String.format(Locale.ROOT, " | %.2f", jobs.stream().mapToLong(r -> r[col]).sum() / tasks));
            }
            b.append(String.format(Locale.ROOT, " | %.2f", jobs.stream().mapToLong(r -> r[12]).sum() / n));
            System.err.println(b.append(" |"));
        }
    }
}
