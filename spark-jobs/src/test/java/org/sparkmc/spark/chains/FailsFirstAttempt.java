package org.sparkmc.spark.chains;

import java.util.List;
import org.apache.spark.TaskContext;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;

/**
 * The bimodal target, except that the first attempt of every Spark task dies after a few density evaluations
 * ({@code fail-after}, 50 unless given),
 * as a lost executor would; Spark then retries the task, or in a barrier stage the whole stage (its tasks' attempts
 * start again from 0 in the stage's next attempt, which this target lets through).
 */
public final class FailsFirstAttempt implements Target {
    private static final long serialVersionUID = 1L;
    private final BimodalMixture target;
    private final int failAfter;
    private transient int calls;

    public FailsFirstAttempt(ModelParameters parameters) {
        target = new BimodalMixture(parameters);
        failAfter = parameters.has("fail-after") ? parameters.getInt("fail-after") : 50;
    }

    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public double logDensity(double[] position) {
        TaskContext task = TaskContext.get();
        if (task != null && task.attemptNumber() == 0 && task.stageAttemptNumber() == 0 && ++calls > failAfter) {
            throw new IllegalStateException("simulated executor loss in task " + task.taskAttemptId());
        }
        return target.logDensity(position);
    }

    @Override
    public List<String> parameterNames() {
        return target.parameterNames();
    }

    @Override
    public double[] parameters(double[] position) {
        return target.parameters(position);
    }
}
