"""Airflow DAG: scheduled sparkmc stages with SparkSubmitOperator.

One run per day: a topic model of the day's corpus (`lda`), and independently a convergence-checked `chains` stage
followed by its `diagnose` stage. Each stage
- writes to an output path templated by the run's logical date, so a rerun of a day replaces exactly that day's
  output (--overwrite) and never another's;
- checkpoints (every round for chains; for lda as --checkpoint-every auto spaces the saves) under a per-day
  checkpoint path and is started with
  --resume, so an Airflow retry after a lost driver continues from the last checkpoint instead of starting over (a
  fresh run ignores --resume when no checkpoint exists yet; the resumed outputs equal an uninterrupted run's).
  The checkpoint stays after success: a rerun with the same inputs and settings resumes it and writes the same
  outputs again. A rerun after the day's inputs or settings changed is refused by --resume (exit 2: the checkpoint
  is of a different run) so that no saved progress is mixed with other data: delete that day's checkpoint
  directory, then clear the task (the failure message names the directory);
- maps sparkmc's exit codes (SparkmcSubmitOperator): 0 success; 2 bad input or configuration, 3 finished but
  not converged under --require-convergence (outputs were written) and 52 out of memory fail the task at once,
  without retries, because a retry with the same inputs and memory cannot help and a human should look; 1 or
  anything else (143 when the task was terminated) is retried (`retries` below).

Requires apache-airflow and apache-airflow-providers-apache-spark, a Spark connection (conn id "spark_default")
pointing at the cluster in client deploy mode (there spark-submit exits with the driver's exit code; in cluster mode
it cannot tell them apart), and the sparkmc app jar at SPARKMC_JAR.
"""
from datetime import datetime, timedelta
import os
import re

from airflow import DAG
from airflow.exceptions import AirflowException, AirflowFailException
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

# SparkSubmitHook's failure message ends "... Error code is: <spark-submit's exit code>."
_EXIT_CODE = re.compile(r"Error code is: (-?\d+)")
NO_RETRY = {
    2: "sparkmc exit 2: bad input or configuration (see the task log for what and where); a retry will not help",
    3: "sparkmc exit 3: finished and wrote its outputs but did not converge under --require-convergence",
    52: ("sparkmc exit 52: a task ran out of memory, and a retry with the same memory runs out again: raise the "
         "executors' or the driver's memory (executor_memory, driver_memory) or spread the work over more "
         "--partitions"),
}


def sparkmc_exit_code(message):
    """spark-submit's exit code in a SparkSubmitHook failure message, or None if it names none."""
    match = _EXIT_CODE.search(message)
    return int(match.group(1)) if match else None


class SparkmcSubmitOperator(SparkSubmitOperator):
    """SparkSubmitOperator that fails without retries on sparkmc's exit codes 2, 3 and 52 and retries the rest."""

    def execute(self, context):
        try:
            return super().execute(context)
        except AirflowException as failure:
            code = sparkmc_exit_code(str(failure))
            if code in NO_RETRY:
                raise AirflowFailException(NO_RETRY[code] + self._checkpoint_hint(code)) from failure
            raise

    def _checkpoint_hint(self, code):
        """For exit 2 of a stage that resumes: how to rerun it after its inputs or settings changed."""
        # a templated field, rendered before execute; named _application_args in providers before 4.0
        args = list(getattr(self, "application_args", None) or getattr(self, "_application_args", None) or [])
        if code != 2 or "--resume" not in args or "--checkpoint" not in args:
            return ""
        checkpoint = args[args.index("--checkpoint") + 1]
        return (f"; if this day's inputs or settings changed since its checkpoint {checkpoint} was saved (a rerun "
                "after a fix), --resume refuses that checkpoint: delete the directory, then clear the task")

SPARKMC_JAR = os.environ.get("SPARKMC_JAR", "/opt/sparkmc/sparkmc-spark-jobs.jar")
SPARKMC_CONF = os.environ.get("SPARKMC_CONF", "/opt/sparkmc/conf")
OUTPUT_ROOT = os.environ.get("SPARKMC_OUTPUT_ROOT", "hdfs:///data/sparkmc")
MAIN_CLASS = "org.sparkmc.spark.cli.Main"
SPARK_CONF = {
    "spark.serializer": "org.apache.spark.serializer.KryoSerializer",
    "spark.kryo.registrationRequired": "true",
    "spark.kryo.registrator": "org.sparkmc.spark.SparkmcKryoRegistrator",
}

default_args = {
    "owner": "sparkmc",
    "retries": 2,
    "retry_delay": timedelta(minutes=5),
}

with DAG(
    dag_id="sparkmc_daily",
    description="sparkmc: a daily topic model (lda); chains with a convergence check, then diagnostics of its draws",
    start_date=datetime(2026, 11, 1),
    schedule="@daily",
    catchup=False,
    default_args=default_args,
    max_active_runs=1,
) as dag:
    day = "{{ ds_nodash }}"

    chains = SparkmcSubmitOperator(
        task_id="chains_eight_schools",
        application=SPARKMC_JAR,
        java_class=MAIN_CLASS,
        conf=SPARK_CONF,
        application_args=[
            "chains",
            "--conf", f"{SPARKMC_CONF}/chains-eight-schools.conf",
            "--data", f"{OUTPUT_ROOT}/inputs/eight_schools.json",
            "--out", f"{OUTPUT_ROOT}/chains/{day}",
            "--overwrite",
            "--checkpoint", f"{OUTPUT_ROOT}/checkpoints/chains/{day}",
            "--resume",
            "--require-convergence",
        ],
    )

    diagnose = SparkmcSubmitOperator(
        task_id="diagnose_chains",
        application=SPARKMC_JAR,
        java_class=MAIN_CLASS,
        conf=SPARK_CONF,
        application_args=[
            "diagnose", f"{OUTPUT_ROOT}/chains/{day}/draws.parquet",
            "--out", f"{OUTPUT_ROOT}/diagnostics/{day}",
            "--overwrite",
        ],
    )

    lda = SparkmcSubmitOperator(
        task_id="lda_topics",
        application=SPARKMC_JAR,
        java_class=MAIN_CLASS,
        conf=SPARK_CONF,
        application_args=[
            "lda",
            "--conf", f"{SPARKMC_CONF}/lda-kos.conf",
            "--docword", f"{OUTPUT_ROOT}/inputs/{day}/docword.txt.gz",
            "--vocab", f"{OUTPUT_ROOT}/inputs/{day}/vocab.txt",
            "--out", f"{OUTPUT_ROOT}/lda/{day}",
            "--overwrite",
            # Saves as --checkpoint-every's default (auto) spaces them: after the first, about 5% of the run at
            # most, and about 30 s of sweeps (or 19 times a save's time, if longer) lost on a retry.
            "--checkpoint", f"{OUTPUT_ROOT}/checkpoints/lda/{day}",
            "--resume",
        ],
    )

    chains >> diagnose
