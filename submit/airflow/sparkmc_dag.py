"""Airflow DAG: scheduled sparkmc stages with SparkSubmitOperator.

One run per day: a topic model of the day's corpus (`lda`), and independently a convergence-checked `chains` stage
followed by its `diagnose` stage. Each stage
- writes to an output path templated by the run's logical date, so a rerun of a day replaces exactly that day's
  output (--overwrite) and never another's;
- checkpoints (every round for chains, every 10 sweeps for lda) under a per-day checkpoint path and is started with
  --resume, so an Airflow retry after a lost driver continues from the last checkpoint instead of starting over (a
  fresh run ignores --resume when no checkpoint exists yet; the resumed outputs equal an uninterrupted run's);
- maps sparkmc's exit codes: 0 success; 2 bad input or configuration (fix the config, retrying will not help);
  3 finished but not converged under --require-convergence (outputs were written; the stage fails so a human looks);
  1 anything else (retried).

Requires apache-airflow and apache-airflow-providers-apache-spark, a Spark connection (conn id "spark_default")
pointing at the cluster, and the sparkmc app jar at SPARKMC_JAR.
"""
from datetime import datetime, timedelta
import os

from airflow import DAG
from airflow.providers.apache.spark.operators.spark_submit import SparkSubmitOperator

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

    chains = SparkSubmitOperator(
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

    diagnose = SparkSubmitOperator(
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

    lda = SparkSubmitOperator(
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
            "--checkpoint", f"{OUTPUT_ROOT}/checkpoints/lda/{day}",
            "--checkpoint-every", "10",
            "--resume",
        ],
    )

    chains >> diagnose
