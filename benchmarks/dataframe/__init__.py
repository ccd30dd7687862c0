"""DuckDB Labs' db-benchmark (groupby and join) for pandas and tessera.pandas: the data
generators (datagen.py) and the queries as its pandas solution writes them (queries.py).
benchmarks/dataframe.py runs them; tests/python/test_pandas_dbbench.py checks the answers."""
